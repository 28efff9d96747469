/**
 * Check-then-act race on the mutating tools, black-box (in test/slow: a 1000-iteration stress run with a spinning
 * swapper process): a separate process swaps a directory inside the root
 * with a symlink to an outside directory (bounded iterations) while the client keeps writing, creating
 * directories, deleting trees and moving below it. Nothing outside may be created, changed or removed — not even for an instant
 * (an inotify watch on the outside directories sees transient temp files too).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { snapshot, tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";
import { startSwapper } from "../helpers/swapper.js";

const ITERATIONS = 1000;
const area = tempArea("mcpfs-wrace-");
const INSIDE = { "d/victim.txt": "inside\n", "d/sub/x.txt": "inside\n", "keep/x.txt": "keep\n" };
const OUTSIDE = {
  "dir/victim.txt": "OUTSIDE-VICTIM\n",
  "dir/sub/x.txt": "OUTSIDE-SUB\n",
  "dir/new.txt": "OUTSIDE-NEW\n",
  "dir/copy/x.txt": "OUTSIDE-COPY\n",
};

const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [root, outsideDir, n] = process.argv.slice(1);
const d = path.join(root, "d"), aside = path.join(root, ".d-real");
const spin = (us) => { const end = process.hrtime.bigint() + BigInt(us) * 1000n; while (process.hrtime.bigint() < end); };
// While d is briefly missing the server may create it (mkdir -p of a parent): such a d is thrown away.
const place = (make) => { for (;;) { try { make(); return; } catch (e) { if (e.code !== "EEXIST" && e.code !== "ENOTEMPTY") throw e; try { fs.rmSync(d, { recursive: true, force: true }); } catch {} } } };
for (let i = 0; i < Number(n); i++) {
  fs.renameSync(d, aside);
  place(() => fs.symlinkSync(outsideDir, d));
  spin(400);
  fs.unlinkSync(d);
  place(() => fs.renameSync(aside, d));
  spin(400);
}
process.stdout.write(String(n));
`;

afterAll(() => area.cleanup());

type Call = [string, Record<string, unknown>];

/** Runs the swapper against `root` while three workers cycle through `calls`; asserts nothing outside moved. */
async function race(name: string, serverArgs: (root: string) => string[], calls: (root: string) => Call[]) {
  const root = area.tree(`${name}-root`, INSIDE);
  const outside = area.tree(`${name}-outside`, OUTSIDE);
  const outsideDir = path.join(outside, "dir");
  const conn: Connection = await startServer(serverArgs(root));
  try {
    const before = snapshot(outside);
    const events: string[] = [];
    const watchers = ["", "sub", "copy"].map((sub) => {
      const dir = path.join(outsideDir, sub);
      return fs.watch(dir, (type, file) => events.push(`${type} ${dir}/${file}`));
    });
    const swapper = startSwapper(SWAPPER, [root, outsideDir, String(ITERATIONS)]);
    const list = calls(root);
    const stats = { calls: 0, ok: 0, refused: 0 };
    const worker = async (k: number) => {
      let i = k;
      while (!swapper.done) {
        const [tool, args] = list[i++ % list.length]!;
        const r = await conn.call(tool, args);
        stats.calls++;
        if (r.isError) stats.refused++;
        else stats.ok++;
      }
    };
    await Promise.all([0, 3, 6].map(worker));
    const { code, printed: iterations } = await swapper.finished;
    expect(code).toBe(0);
    await new Promise((r) => setTimeout(r, 200)); // let the last inotify events arrive
    for (const w of watchers) w.close();
    process.stderr.write(`[write-race ${name}] ${iterations} swap iterations; ${JSON.stringify(stats)}\n`);
    expect(iterations).toBe(String(ITERATIONS));
    expect(stats.calls).toBeGreaterThan(0);
    expect(events).toEqual([]);
    expect(snapshot(outside)).toEqual(before);
  } finally {
    await conn.close();
  }
}

describe("directory swap race while mutating", () => {
  it(`workspace surface: ${ITERATIONS} swaps, concurrent writes/deletes/moves, nothing outside touched`, async () => {
    await race(
      "ws",
      (root) => ["--project-dir", root, "--console-only", "--log-level", "ERROR"],
      () => [
        ["save_file", { file_path: "d/victim.txt", content: "written\n" }],
        ["save_file", { file_path: "d/sub/x.txt", content: "written\n" }],
        ["save_file", { file_path: "d/new.txt", content: "new\n" }],
        ["move_file", { source_path: "d/new.txt", destination_path: "moved.txt" }],
        ["move_file", { source_path: "moved.txt", destination_path: "d/new.txt" }],
        ["delete_directory", { dir_path: "d/sub", recursive: true }],
        ["save_file", { file_path: "d/sub/deeper/y.txt", content: "new\n" }],
        ["append_file", { file_path: "d/victim.txt", content: "more\n" }],
        ["delete_this_file", { file_path: "d/new.txt" }],
        ["edit_file", { file_path: "d/sub/x.txt", old_string: "written", new_string: "edited" }],
      ],
    );
  });

  it(`filesystem surface: ${ITERATIONS} swaps, concurrent writes/copies/deletes/moves, nothing outside touched`, async () => {
    await race(
      "fs",
      (root) => [root],
      (root) => {
        const p = (rel: string) => path.join(root, rel);
        return [
          ["write_file", { path: p("d/victim.txt"), content: "written\n" }],
          ["create_directory", { path: p("d/sub/made/deeper") }],
          ["copy_file", { source: p("keep"), destination: p("d/copy") }],
          ["delete_directory", { path: p("d/copy"), recursive: true }],
          ["write_file", { path: p("d/new.txt"), content: "new\n" }],
          ["move_file", { source: p("d/new.txt"), destination: p("moved.txt") }],
          ["append_file", { path: p("d/sub/x.txt"), content: "more\n" }],
          ["delete_file", { path: p("moved.txt") }],
          ["copy_file", { source: p("keep/x.txt"), destination: p("d/sub/x.txt"), overwrite: true }],
          ["delete_directory", { path: p("d/sub"), recursive: true }],
          ["edit_file", { path: p("d/victim.txt"), edits: [{ oldText: "written", newText: "edited" }] }],
          ["delete_file", { path: p("d/victim.txt") }],
        ];
      },
    );
  });
});
