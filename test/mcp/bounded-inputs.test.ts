/**
 * Bounded inputs, bounded time (issue 27, item 5): a huge path or a huge/complex regex is refused without
 * stalling the server, and the refusal echoes at most 200 characters of it. The stall is judged by effect: a
 * read of a small file sent while the hostile call is being processed is answered within 2 s (a generous
 * bound: it takes milliseconds when nothing blocks the event loop; before the fix it waited 2.5-60 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/in-process.js";

const area = tempArea("mcpfs-bounds-");
const root = area.tree("root", { "small.txt": "hello\n", "code.txt": "alpha beta gamma\n".repeat(50) });
let conn: Connection;
let ws: Connection;

beforeAll(async () => {
  conn = await startServer([root], { timeoutMs: 120_000 });
  ws = await startServer(["--project-dir", root], { timeoutMs: 120_000 });
}, 60_000);
afterAll(async () => {
  await conn?.close();
  await ws?.close();
  area.cleanup();
});

/** Sends the hostile call, then a small read; returns the read's latency and the hostile call's reply. */
async function concurrently(
  c: Connection,
  tool: string,
  args: Record<string, unknown>,
  read: [string, object],
) {
  const hostile = c
    .call(tool, args)
    .catch((err: Error) => ({ text: err.message, isError: true }) as TextResult);
  // Long enough for the hostile call to be past its first awaits (walks, imports) and into its heavy part.
  await new Promise((r) => setTimeout(r, 300));
  const started = performance.now();
  const small = await c.call(read[0], read[1] as Record<string, unknown>);
  const readMs = performance.now() - started;
  expect(small.text).toContain("hello");
  return { readMs, reply: await hostile };
}

/** The longest run of `input` the reply repeats (a cheap bound: the count of the input's first 201 chars). */
function echoes(reply: string, input: string, n = 201): boolean {
  return reply.includes(input.slice(0, n)) || reply.includes(input.slice(-n));
}

const READ_FS: [string, object] = ["read_text_file", { path: `${root}/small.txt` }];
const READ_WS: [string, object] = ["read_file", { file_path: "small.txt" }];

describe("a path far over the platform limit", () => {
  const huge = `${root}/${"abcdefgh/".repeat(12_000)}x.txt`; // ~108 KB, 12,000 segments

  it("is refused at once, echoing at most 200 characters of it (filesystem surface)", async () => {
    const { readMs, reply } = await concurrently(conn, "read_text_file", { path: huge }, READ_FS);
    expect(reply.isError).toBe(true);
    expect(echoes(reply.text, huge)).toBe(false);
    expect(reply.text.length).toBeLessThan(400);
    expect(readMs).toBeLessThan(2000);
  }, 120_000);

  it("is refused at once on a write too, and on the workspace surface", async () => {
    const rel = `${"abcdefgh/".repeat(12_000)}x.txt`;
    const w = await concurrently(conn, "write_file", { path: huge, content: "x" }, READ_FS);
    expect(w.reply.isError).toBe(true);
    expect(echoes(w.reply.text, huge)).toBe(false);
    expect(w.readMs).toBeLessThan(2000);
    const r = await concurrently(ws, "read_file", { file_path: rel }, READ_WS);
    expect(r.reply.isError).toBe(true);
    expect(echoes(r.reply.text, rel)).toBe(false);
    expect(r.reply.text.length).toBeLessThan(400);
    expect(r.readMs).toBeLessThan(2000);
  }, 120_000);
});

describe("a hostile regex", () => {
  it("over 64 KiB is refused without stalling, echoing at most 200 characters of it", async () => {
    const pattern = Array.from({ length: 20_000 }, (_, i) => `w${i}x`).join("|"); // ~130 KB
    const { readMs, reply } = await concurrently(conn, "grep", { path: root, pattern }, READ_FS);
    expect(reply.isError).toBe(true);
    expect(echoes(reply.text, pattern)).toBe(false);
    expect(readMs).toBeLessThan(2000);
  }, 120_000);

  it("under 64 KiB but slow to compile is refused without stalling (both surfaces)", async () => {
    // 11 KB that re2js expands to a million instructions: seconds of compilation before the fix.
    const pattern = "[a-z]{1000}".repeat(1000);
    const a = await concurrently(conn, "grep", { path: root, pattern }, READ_FS);
    expect(a.readMs).toBeLessThan(2000);
    expect(a.reply.isError).toBe(true);
    expect(echoes(a.reply.text, pattern)).toBe(false);
    const b = await concurrently(ws, "search_files", { pattern }, READ_WS);
    expect(b.reply.isError).toBe(true);
    expect(b.readMs).toBeLessThan(2000);
  }, 120_000);

  it("an ordinary regex still searches", async () => {
    const r = await conn.call("grep", { path: root, pattern: "be[t]a\\s+g.{3}a" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("alpha beta gamma");
  });
});
