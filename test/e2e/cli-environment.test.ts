/**
 * The environment is read by the CLI only and reaches the core as Config: a grep engine forced by
 * MCPFS_GREP_ENGINE is the one that runs (each engine words a bad pattern its own way; the auto engine takes
 * this small scope in process).
 */
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-env-");
afterAll(() => area.cleanup());

// What each engine says of an unclosed group (`(`): RE2's wording in process, ripgrep's own.
const WORDING = { js: "error parsing regexp", rg: "regex parse error" } as const;

describe("MCPFS_GREP_ENGINE reaches grep", () => {
  const dir = area.tree("tree", { "a.txt": "hello\n" });
  for (const engine of ["js", "rg"] as const) {
    it(`filesystem grep, ${engine}`, async () => {
      const conn = await startServer([dir], { env: { MCPFS_GREP_ENGINE: engine } });
      try {
        const r = await conn.call("grep", { path: dir, pattern: "(" });
        expect(r.isError).toBe(true);
        expect(r.text).toContain(WORDING[engine]);
      } finally {
        await conn.close();
      }
    });
  }
});
