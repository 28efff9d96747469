/**
 * Black-box: one name for every entry, on Linux where it is real: a file stored decomposed (NFD, as macOS
 * writes names) and named composed (NFC) by the client is deleted, listed and undone under the stored name.
 * `list_changes` by the composed name finds the change after the entry is gone (nothing left to look up).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/in-process.js";

const area = tempArea();
afterAll(() => area.cleanup());

const NFD = "cafe\u0301.txt";
const NFC = "caf\u00e9.txt";

describe("stored names", () => {
  it("a decomposed name spelled composed: deleted, listed by either spelling, undone under the stored name", async () => {
    const root = area.tree("nfd", {});
    fs.writeFileSync(path.join(root, NFD), "stored decomposed\n");
    const conn = await startServer([root], { env: { MCPFS_STATE_DIR: path.join(area.base, "state-nfd") } });
    try {
      const del = await conn.call("delete_file", { path: path.join(root, NFC) });
      expect(del.isError, del.text).toBe(false);
      expect(fs.readdirSync(root)).toEqual([]);
      for (const spelled of [NFC, NFD]) {
        const listed = await conn.call("list_changes", { path: path.join(root, spelled) });
        expect(listed.text, spelled).toContain("delete_file");
      }
      const id = ((await conn.call("list_changes", {})).structured as { changes: { id: string }[] })
        .changes[0]!.id;
      const undo = await conn.call("undo_change", { id });
      expect(undo.isError, undo.text).toBe(false);
      expect(fs.readdirSync(root)).toEqual([NFD]);
      expect(fs.readFileSync(path.join(root, NFD), "utf8")).toBe("stored decomposed\n");
    } finally {
      await conn.close();
    }
  });
});
