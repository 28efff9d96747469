/**
 * A regex under 64 KiB that re2js takes seconds to compile (`[a-z]{1000}` a thousand times, 11 KB, a million
 * instructions) is judged in a worker and refused, on both surfaces, without stalling the server: a small read
 * sent while the worker compiles is answered before the refusal (ordering, not milliseconds: before the fix the
 * compilation ran on the main thread and the read waited behind it). In test/e2e because the worker is a file
 * of the built package (src/core/search/regex-admit.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/server.js";

const area = tempArea("mcpfs-regex-admit-");
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

const PATTERN = "[a-z]{1000}".repeat(1000);

/** Sends the hostile call, then a small read; returns the hostile reply and which of the two settled first. */
async function alongside(c: Connection, tool: string, args: Record<string, unknown>, read: [string, object]) {
  const order: string[] = [];
  const hostile = c
    .call(tool, args)
    .catch((err: Error) => ({ text: err.message, isError: true }) as TextResult)
    .finally(() => order.push("hostile"));
  const small = await c.call(read[0], read[1] as Record<string, unknown>).finally(() => order.push("small"));
  expect(small.text).toContain("hello");
  return { reply: await hostile, order };
}

describe("a regex under 64 KiB but slow to compile", () => {
  it("is refused on the filesystem surface, the server answering meanwhile", async () => {
    const { reply, order } = await alongside(conn, "grep", { path: root, pattern: PATTERN }, [
      "read_text_file",
      { path: `${root}/small.txt` },
    ]);
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/^Search pattern too large: compiling it took/);
    expect(reply.text).not.toContain(PATTERN.slice(0, 201));
    expect(order, "the small read was answered while the regex compiled").toEqual(["small", "hostile"]);
  });

  it("is refused on the workspace surface, the server answering meanwhile", async () => {
    const { reply, order } = await alongside(ws, "search_files", { pattern: PATTERN }, [
      "read_file",
      { file_path: "small.txt" },
    ]);
    expect(reply.isError).toBe(true);
    expect(reply.text).toMatch(/Search pattern too large: compiling it took/);
    expect(order, "the small read was answered while the regex compiled").toEqual(["small", "hostile"]);
  });
});
