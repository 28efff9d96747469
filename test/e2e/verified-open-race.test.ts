/**
 * One verified open (safe-open.ts `checkDescriptor`) behind every read, grep and check: what was opened
 * must be the very entry the path gate judged. A separate process swaps a folder for a symlink (and back)
 * while calls run:
 * - to a folder *inside* the root that `--deny` keeps out: confinement alone ("the descriptor is somewhere
 *   in the root") let the in-process grep and the reads return the denied file's text;
 * - to a folder *outside* the root: `check_file_size` opened what its walk found without any check, and
 *   counted (so reported) the outside file's lines.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";
import { startSwapper } from "../helpers/swapper.js";

const ITERATIONS = 1500;
const area = tempArea("mcpfs-verified-open-");
const SECRET = `OPEN-CANARY-${process.pid}-${Date.now()}`;
/** A line count no file inside the project has: it appears only if the outside file was counted. */
const OUTSIDE_LINES = 777;

/** `d` (under `root`) flips between the real folder and a symlink to `target`, busy-waiting in each state. */
const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [root, target, n] = process.argv.slice(1);
const d = path.join(root, "d"), real = path.join(root, ".d-real");
const spin = (us) => { const end = process.hrtime.bigint() + BigInt(us) * 1000n; while (process.hrtime.bigint() < end); };
for (let i = 0; i < Number(n); i++) {
  fs.renameSync(d, real);
  fs.symlinkSync(target, d);
  spin(400);
  fs.unlinkSync(d);
  fs.renameSync(real, d);
  spin(200);
}
process.stdout.write(String(n));
`;

afterAll(() => area.cleanup());

/** Runs `calls` on four workers while the swapper runs; counts replies holding `leak`. */
async function raceCalls(
  conn: Connection,
  root: string,
  target: string,
  calls: [string, Record<string, unknown>][],
  leak: (raw: string) => boolean,
): Promise<{ calls: number; leaks: number }> {
  const swapper = startSwapper(SWAPPER, [root, target, String(ITERATIONS)]);
  const stats = { calls: 0, leaks: 0 };
  const worker = async (k: number) => {
    for (let i = k; !swapper.done; i++) {
      const [name, args] = calls[i % calls.length]!;
      const r = await conn.call(name, args);
      stats.calls++;
      if (leak(JSON.stringify(r.raw))) stats.leaks++;
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  const { code, printed } = await swapper.finished;
  expect(code).toBe(0);
  expect(printed).toBe(String(ITERATIONS));
  return stats;
}

describe("a folder swapped for a symlink to a denied folder inside the root", () => {
  const root = area.tree("root", {
    "d/note.txt": "OPEN-CANARY-SAFE\n",
    "private/note.txt": `${SECRET}\n`,
  });
  let conn: Connection;
  afterAll(() => conn?.close());

  it(`${ITERATIONS} swaps: grep (in-process engine) and reads never return the denied text`, async () => {
    conn = await startServer([root, "--deny", "/private"], { env: { MCPFS_GREP_ENGINE: "js" } });
    const note = path.join(root, "d/note.txt");
    const stats = await raceCalls(
      conn,
      root,
      path.join(root, "private"),
      [
        ["grep", { pattern: "OPEN-CANARY", path: root }],
        ["read_text_file", { path: note }],
        ["grep", { pattern: "OPEN-CANARY", path: note }],
        ["read_text_file", { path: note, head: 1 }],
      ],
      (raw) => raw.includes(SECRET),
    );
    process.stderr.write(`[verified-open] denied-in-root: ${JSON.stringify(stats)}\n`);
    expect(stats.calls).toBeGreaterThan(0);
    expect(stats.leaks).toBe(0);
  });
});

describe("check_file_size while a folder is swapped for a symlink to an outside folder", () => {
  const root = area.tree("project", { "d/big.txt": "x\n".repeat(10), "keep.txt": "k\n" });
  const outside = area.tree("outside", { "dir/big.txt": "o\n".repeat(OUTSIDE_LINES) });
  let conn: Connection;
  afterAll(() => conn?.close());

  it(`${ITERATIONS} swaps: the outside file is never counted`, async () => {
    conn = await startServer(["--project-dir", root, "--console-only"]);
    const stats = await raceCalls(
      conn,
      root,
      path.join(outside, "dir"),
      [["check_file_size", { max_lines: 5 }]],
      (raw) => raw.includes(`${OUTSIDE_LINES} lines`),
    );
    process.stderr.write(`[verified-open] check_file_size: ${JSON.stringify(stats)}\n`);
    expect(stats.calls).toBeGreaterThan(0);
    expect(stats.leaks).toBe(0);
    expect(fs.readFileSync(path.join(outside, "dir/big.txt"), "utf8")).toBe("o\n".repeat(OUTSIDE_LINES));
  });
});
