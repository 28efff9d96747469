/**
 * `headLines` over chunk boundaries (its first read is under 4 KiB, the next ones 64 KiB) and output-budget
 * cuts, through the FileHandle the readers take: the lines are the file's first lines; a cut keeps whole
 * lines (each costing its text and one break) and then the first bytes of the next line up to `maxBytes` in
 * all (less a cut character).
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { charBoundary } from "./decode.js";
import { countLines, splitLines } from "./lines.js";
import { headLines } from "./shapes.js";

const area = tempArea("mcpfs-readhead-");
afterAll(() => area.cleanup());

/** What a head of `k` lines within `maxBytes` returns, from the policy, written independently. */
function reference(bytes: Buffer, k: number, maxBytes: number) {
  const all = splitLines(bytes.toString("utf8"));
  const lines: string[] = [];
  let used = 0;
  for (const line of all.slice(0, k)) {
    const b = Buffer.from(line);
    if (used + b.length > maxBytes) {
      const cut = b.subarray(0, Math.max(0, maxBytes - used));
      lines.push(cut.toString("utf8", 0, charBoundary(cut)));
      return { lines, more: true, partial: true };
    }
    lines.push(line);
    used += b.length + 1;
  }
  return { lines, more: k < all.length, partial: undefined };
}

const piece = fc.constantFrom(
  "a",
  "é",
  "\n",
  "\r\n",
  "\r",
  "x".repeat(700),
  "€".repeat(1500),
  "y".repeat(70_000),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

describe("headLines across chunks and cuts", () => {
  it("returns the first lines, or the lines that fit in maxBytes and a piece of the next", async () => {
    const file = path.join(area.tree("head"), "f.txt");
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 200_000 }),
        async (t, k, m) => {
          fs.writeFileSync(file, t);
          const bytes = Buffer.from(t);
          const want = reference(bytes, k, m);
          const fh = await fs.promises.open(file);
          try {
            const got = await headLines(fh, "f.txt", k, m);
            expect(got.lines.map((l) => l.text)).toEqual(want.lines);
            expect(got.more).toBe(want.more);
            expect(got.partial).toBe(want.partial);
            expect(countLines(t)).toBe(splitLines(t).length);
          } finally {
            await fh.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
