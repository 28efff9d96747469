/**
 * No call opens a FIFO (or device) blocking: each hostile call on a FIFO answers at once with a clear error,
 * and while several run, an ordinary call on the same server is answered within 2 s (before the fix four
 * blocked opens exhausted the thread pool and every other call hung). Both surfaces, tools and resources.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, serverPool } from "../helpers/in-process.js";

const area = tempArea("mcpfs-fifo-");
afterAll(() => area.cleanup());
const start = serverPool();
const HAS_FIFO = process.platform !== "win32";

function fifoIn(dir: string, name = "pipe"): string {
  const p = path.join(dir, name);
  execFileSync("mkfifo", [p]);
  return p;
}

type Outcome = { settled: true; isError: boolean; text: string } | { settled: false };

/** Settles within `ms` or reports that it did not. */
async function within(ms: number, p: Promise<{ isError: boolean; text: string }>): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ settled: false }), ms);
  });
  const done = p.then(
    (r) => ({ settled: true as const, isError: r.isError, text: r.text }),
    (err: Error) => ({ settled: true as const, isError: true, text: err.message }),
  );
  const out = await Promise.race([done, late]);
  clearTimeout(timer);
  return out;
}

/** Runs the hostile calls together, probes the server meanwhile, then checks every hostile call refused. */
async function expectNoStall(
  hostile: Record<string, () => Promise<{ isError: boolean; text: string }>>,
  probe: () => Promise<{ isError: boolean; text: string }>,
) {
  const running = Object.entries(hostile).map(([name, call]) => [name, within(5000, call())] as const);
  const answered = await within(2000, probe());
  expect(answered, "an ordinary call while the hostile ones run").toMatchObject({
    settled: true,
    isError: false,
  });
  for (const [name, outcome] of running) {
    const o = await outcome;
    expect(o, name).toMatchObject({ settled: true, isError: true });
    if (o.settled) expect(o.text, name).toMatch(/not a (regular )?file|not a directory/i);
  }
}

function resourceRead(conn: Connection, file: string) {
  return conn.client
    .readResource({ uri: pathToFileURL(file).href })
    .then((r: { contents: { text?: string }[] }) => ({ isError: false, text: r.contents[0]?.text ?? "" }));
}

describe.runIf(HAS_FIFO)("FIFOs are never opened blocking", () => {
  it("filesystem surface: edit, append, read, media, copy, hash, grep and resources/read answer at once", async () => {
    const dir = area.tree("fs", { "ok.txt": "fine\n" });
    const fifo = fifoIn(dir);
    const conn = await start([dir]);
    await expectNoStall(
      {
        edit_file: () => conn.call("edit_file", { path: fifo, edits: [{ oldText: "a", newText: "b" }] }),
        append_file: () => conn.call("append_file", { path: fifo, content: "x" }),
        append_file2: () => conn.call("append_file", { path: fifo, content: "y" }),
        read_text_file: () => conn.call("read_text_file", { path: fifo }),
        read_media_file: () => conn.call("read_media_file", { path: fifo }),
        copy_file: () => conn.call("copy_file", { source: fifo, destination: path.join(dir, "copy") }),
        grep: () => conn.call("grep", { path: fifo, pattern: "x" }),
        resources_read: () => resourceRead(conn, fifo),
        resources_read2: () => resourceRead(conn, fifo),
      },
      () => conn.call("read_text_file", { path: path.join(dir, "ok.txt") }),
    );
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
    expect(fs.existsSync(path.join(dir, "copy"))).toBe(false);
  });

  it("workspace surface: edit_file, append_file, read_file and resources/read answer at once", async () => {
    const dir = area.tree("ws", { "ok.txt": "fine\n" });
    const fifo = fifoIn(dir);
    const conn = await start(["--project-dir", dir, "--console-only"]);
    await expectNoStall(
      {
        edit_file: () => conn.call("edit_file", { file_path: "pipe", old_string: "a", new_string: "b" }),
        edit_file2: () => conn.call("edit_file", { file_path: "pipe", old_string: "c", new_string: "d" }),
        append_file: () => conn.call("append_file", { file_path: "pipe", content: "x" }),
        append_file2: () => conn.call("append_file", { file_path: "pipe", content: "y" }),
        read_file: () => conn.call("read_file", { file_path: "pipe" }),
        resources_read: () => resourceRead(conn, fifo),
      },
      () => conn.call("read_file", { file_path: "ok.txt" }),
    );
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
  });

  it("a FIFO named .gitignore does not block a walk", async () => {
    const dir = area.tree("gi", { "a.txt": "a\n", "sub/b.txt": "b\n" });
    fifoIn(path.join(dir, "sub"), ".gitignore");
    const conn = await start([dir]);
    const r = await within(5000, conn.call("search_files", { path: dir, pattern: "**/*.txt" }));
    expect(r).toMatchObject({ settled: true, isError: false });
    if (r.settled) expect(r.text).toContain(path.join(dir, "sub", "b.txt"));
  });
});
