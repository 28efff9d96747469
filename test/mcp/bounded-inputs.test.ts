/**
 * Bounded inputs (issue 27, item 5): a huge path or a regex over 64 KiB is refused before any work on it
 * (before the fix the server spent 2.5-60 s on them, stalling every other call), and the refusal echoes at
 * most 200 characters of it. Judged by effect, not by a clock: the refusal is the early check's own wording
 * (the platform limit, the pattern's size), short, and the server answers the next call. The regex that is
 * small but slow to compile is judged in a worker, which needs the installed package:
 * test/e2e/regex-admit.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/in-process.js";

const area = tempArea("mcpfs-bounds-");
const root = area.tree("root", { "small.txt": "hello\n", "code.txt": "alpha beta gamma\n".repeat(50) });
let conn: Connection;
let ws: Connection;

beforeAll(async () => {
  conn = await startServer([root]);
  ws = await startServer(["--project-dir", root]);
});
afterAll(async () => {
  await conn?.close();
  await ws?.close();
  area.cleanup();
});

/** The hostile call's reply, then a small read on the same server, which must still be answered. */
async function refusedThenServing(
  c: Connection,
  tool: string,
  args: Record<string, unknown>,
  read: [string, object],
) {
  const reply = await c
    .call(tool, args)
    .catch((err: Error) => ({ text: err.message, isError: true }) as TextResult);
  const small = await c.call(read[0], read[1] as Record<string, unknown>);
  expect(small.text).toContain("hello");
  return reply;
}

/** Whether the reply repeats more than 200 characters of `input` (its first or last 201). */
function echoes(reply: string, input: string, n = 201): boolean {
  return reply.includes(input.slice(0, n)) || reply.includes(input.slice(-n));
}

const READ_FS: [string, object] = ["read_text_file", { path: `${root}/small.txt` }];
const READ_WS: [string, object] = ["read_file", { file_path: "small.txt" }];
const OVER_LIMIT = /the path is over the platform limit/;

describe("a path far over the platform limit", () => {
  const huge = `${root}/${"abcdefgh/".repeat(12_000)}x.txt`; // ~108 KB, 12,000 segments

  it("is refused at once, echoing at most 200 characters of it (filesystem surface)", async () => {
    const reply = await refusedThenServing(conn, "read_text_file", { path: huge }, READ_FS);
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(OVER_LIMIT);
    expect(echoes(reply.text, huge)).toBe(false);
    expect(reply.text.length).toBeLessThan(400);
  });

  it("is refused at once on a write too, and on the workspace surface", async () => {
    const rel = `${"abcdefgh/".repeat(12_000)}x.txt`;
    const w = await refusedThenServing(conn, "write_file", { path: huge, content: "x" }, READ_FS);
    expect(w.isError).toBe(true);
    expect(w.text).toMatch(OVER_LIMIT);
    expect(echoes(w.text, huge)).toBe(false);
    const r = await refusedThenServing(ws, "read_file", { file_path: rel }, READ_WS);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(OVER_LIMIT);
    expect(echoes(r.text, rel)).toBe(false);
    expect(r.text.length).toBeLessThan(400);
  });
});

describe("a hostile regex", () => {
  it("over 64 KiB is refused by its size, echoing at most 200 characters of it", async () => {
    const pattern = Array.from({ length: 20_000 }, (_, i) => `w${i}x`).join("|"); // ~130 KB
    const reply = await refusedThenServing(conn, "grep", { path: root, pattern }, READ_FS);
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/^Search pattern too large: \d+ bytes, over the limit of 65536/);
    expect(echoes(reply.text, pattern)).toBe(false);
  });

  it("an ordinary regex still searches", async () => {
    const r = await conn.call("grep", { path: root, pattern: "be[t]a\\s+g.{3}a" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("alpha beta gamma");
  });
});
