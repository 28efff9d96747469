/**
 * The argument check of test/mcp/unknown-arguments.test.ts with a 2026-07-28 client (the in-process harness
 * speaks only the 2025 era): a changing tool refuses an argument it does not take, and a reading tool's
 * reply says which it ran without.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

describe("a 2026-era client", () => {
  const root = area.tree("v2", { "r.txt": "read me\n" });
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root], { client: "v2" });
  });
  afterAll(() => conn.close());

  it("gets the same refusal and the same note", async () => {
    const w = await conn.call("write_file", { path: path.join(root, "b.txt"), content: "x", dry_run: true });
    expect(w.isError).toBe(true);
    expect(w.text).toContain("unknown parameter dry_run; nothing was done.");
    expect(fs.existsSync(path.join(root, "b.txt"))).toBe(false);
    const r = await conn.call("read_text_file", { path: path.join(root, "r.txt"), limit: 1 });
    expect(r.isError).toBe(false);
    expect(r.raw.content[0].text).toBe("read me\n");
    expect(r.raw.content.at(-1).text).toContain("[mcpfs: ignored unknown parameter limit.");
  });
});
