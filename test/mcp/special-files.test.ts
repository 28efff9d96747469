/**
 * No call opens a FIFO (or device) blocking: each hostile call on a FIFO answers with a clear error, and while
 * several run, an ordinary call on the same server is answered (before the fix four blocked opens exhausted
 * the thread pool and every other call hung for good). Both surfaces, tools and resources. Judged by effect,
 * not by a clock: a regression answers nothing, and fails by the test's timeout; after the file, every FIFO
 * is opened read-write once, which releases an open left blocked on it, so a regression cannot hang the run.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, serverPool } from "../helpers/in-process.js";

const area = tempArea("mcpfs-fifo-");
const fifos: string[] = [];
afterAll(() => {
  // On Linux an O_RDWR open of a FIFO never blocks, and completes any open waiting for the other end.
  for (const f of fifos) fs.closeSync(fs.openSync(f, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
  area.cleanup();
});
const start = serverPool();
const HAS_FIFO = process.platform !== "win32";

function fifoIn(dir: string, name = "pipe"): string {
  const p = path.join(dir, name);
  execFileSync("mkfifo", [p]);
  fifos.push(p);
  return p;
}

type Reply = { isError: boolean; text: string };

/** The call's reply, or its rejection as an error reply. */
const settled = (p: Promise<Reply>): Promise<Reply> =>
  p.catch((err: Error) => ({ isError: true, text: err.message }));

/** Runs the hostile calls together, probes the server meanwhile, then checks every hostile call refused. */
async function expectNoStall(hostile: Record<string, () => Promise<Reply>>, probe: () => Promise<Reply>) {
  const running = Object.entries(hostile).map(([name, call]) => [name, settled(call())] as const);
  const answered = await settled(probe());
  expect(answered, "an ordinary call while the hostile ones run").toMatchObject({ isError: false });
  for (const [name, outcome] of running) {
    const o = await outcome;
    expect(o.isError, name).toBe(true);
    expect(o.text, name).toMatch(/not a (regular )?file|not a directory/i);
  }
}

function resourceRead(conn: Connection, file: string) {
  return conn.client
    .readResource({ uri: pathToFileURL(file).href })
    .then((r: { contents: { text?: string }[] }) => ({ isError: false, text: r.contents[0]?.text ?? "" }));
}

describe.runIf(HAS_FIFO)("FIFOs are never opened blocking", () => {
  it("filesystem surface: edit, append, read, media, copy, hash, grep and resources/read answer with an error", async () => {
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

  it("workspace surface: edit_file, append_file, read_file and resources/read answer with an error", async () => {
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

  it("get_file_info of a FIFO answers its metadata (type other, no encoding) without opening it blocking", async () => {
    const dir = area.tree("info", { "ok.txt": "fine\n" });
    const fifo = fifoIn(dir);
    const conn = await start([dir]);
    const r = await conn.call("get_file_info", { path: fifo });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("type: other");
    expect(r.structured).toMatchObject({ isFile: false, type: "other" });
    expect(r.structured?.encoding).toBeUndefined();
    const ok = await conn.call("get_file_info", { path: path.join(dir, "ok.txt") });
    expect(ok.structured).toMatchObject({ isFile: true, size: 5, encoding: "utf-8" });
  });

  it("a FIFO named .gitignore does not block a walk", async () => {
    const dir = area.tree("gi", { "a.txt": "a\n", "sub/b.txt": "b\n" });
    fifoIn(path.join(dir, "sub"), ".gitignore");
    const conn = await start([dir]);
    const r = await conn.call("search_files", { path: dir, pattern: "**/*.txt" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain(path.join(dir, "sub", "b.txt"));
  });
});
