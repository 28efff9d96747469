/**
 * No search in another encoding stalls the server (#27: "Could any input stall the process for others?"): a
 * Latin-1 file of 56 MiB, searched with `encoding` (filesystem grep) or `--default-encoding` (workspace
 * search_files), is decoded and searched in chunks with the event loop turning between them, so small reads
 * sent one after another while it runs are answered while it runs (bench/cases/15-stalls.mjs times a
 * bystander's wait; no test asserts on time). Before the fix the file was decoded and searched in one
 * synchronous block: the first read waited behind all of it, and none was answered before the search.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { serverPool, type TextResult } from "../helpers/server.js";

const area = tempArea("mcpfs-grep-stall-");
afterAll(() => area.cleanup());
const start = serverPool();

/** 56 MiB of Latin-1 lines (é is the byte 0xE9, never UTF-8), the one match on the last line. */
function bigLatin1(dir: string): void {
  const line = Buffer.from("caf\xe9 au lait, une ligne parmi d'autres du fichier\n", "latin1");
  const block = Buffer.concat(Array.from({ length: 16 * 1024 }, () => line));
  const fd = fs.openSync(path.join(dir, "big.txt"), "w");
  for (let n = 0; n < (56 * 1024 * 1024) / block.length; n++) fs.writeSync(fd, block);
  fs.writeSync(fd, Buffer.from("aiguille \xe0 la fin\n", "latin1"));
  fs.closeSync(fd);
}

/** The search, and small reads one after another until it answers: how many were answered before it. */
async function alongside(search: Promise<TextResult>, read: () => Promise<TextResult>) {
  let done = false;
  const hostile = search.finally(() => {
    done = true;
  });
  let before = 0;
  while (!done) {
    const r = await read();
    expect(r.isError, r.text).toBe(false);
    if (!done) before++;
  }
  return { reply: await hostile, before };
}

describe("a search in another encoding does not stall the server", () => {
  const root = area.tree("root", { "small.txt": "hello\n" });
  bigLatin1(root);

  it("filesystem grep with encoding: small reads are answered while it runs", async () => {
    const c = await start([root]);
    const search = c.call("grep", { path: root, pattern: "aiguille", encoding: "latin1" });
    const read = () => c.call("read_text_file", { path: path.join(root, "small.txt") });
    const { reply, before } = await alongside(search, read);
    expect(reply.isError, reply.text).toBe(false);
    expect(reply.text).toContain("aiguille à la fin");
    expect(before, "small reads answered while the search ran").toBeGreaterThanOrEqual(3);
  });

  it("workspace search_files with --default-encoding: small reads are answered while it runs", async () => {
    const c = await start(["--project-dir", root, "--default-encoding", "latin1"]);
    const search = c.call("search_files", { pattern: "aiguille" });
    const read = () => c.call("read_file", { file_path: "small.txt" });
    const { reply, before } = await alongside(search, read);
    expect(reply.isError, reply.text).toBe(false);
    expect(JSON.stringify(reply.structured)).toContain("aiguille à la fin");
    expect(before, "small reads answered while the search ran").toBeGreaterThanOrEqual(3);
  });
});
