/**
 * `headLines` over chunk boundaries (its first read is under 4 KiB, the next ones 64 KiB) and output-budget
 * cuts, through the FileHandle the readers take: the lines are the file's first lines; a cut keeps exactly the first `maxBytes` bytes (less a cut character).
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { utf8Boundary } from "../../src/core/files/line-range.js";
import { headLines } from "../../src/core/files/read-text.js";
import { countLines, splitLines } from "../../src/core/files/text-lines.js";
import { tempArea } from "../helpers/fixtures.js";

const area = tempArea("mcpfs-readhead-");
afterAll(() => area.cleanup());

/** What a head of `k` lines within `maxBytes` returns, from the policy: a prefix of the file's bytes. */
function reference(bytes: Buffer, k: number, maxBytes: number) {
  let end = 0;
  for (let lines = 0; lines < k && end < bytes.length; lines++) {
    const nl = bytes.indexOf(10, end);
    end = nl === -1 ? bytes.length : nl + 1;
  }
  if (end > maxBytes) {
    const cut = bytes.subarray(0, maxBytes);
    return { lines: splitLines(cut.toString("utf8", 0, utf8Boundary(cut))), more: true, partial: true };
  }
  return { lines: splitLines(bytes.toString("utf8", 0, end)), more: end < bytes.length };
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
  it("returns the first lines, or exactly the first maxBytes bytes when they do not fit", async () => {
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
            const got = await headLines(fh, k, m);
            expect(got.lines).toEqual(want.lines);
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
