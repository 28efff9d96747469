import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { rangeLines } from "./shapes.js";

const area = tempArea("mcpfs-range-");
afterAll(() => area.cleanup());

/** Lines end at LF; a CRLF line's CR is not shown; a lone CR is content (core/text/lines.ts). */
function naiveLines(text: string): string[] {
  const lines = text.split("\n");
  const last = lines.pop()!;
  const out = lines.map((l) => l.replace(/\r$/, ""));
  if (last !== "") out.push(last);
  return out;
}

describe("rangeLines across chunk boundaries", () => {
  it("agrees with a whole-file split for any range, with LF-only stretches and mixed breaks", async () => {
    const dir = area.tree("files");
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            len: fc.integer({ min: 0, max: 3000 }),
            brk: fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"),
          }),
          { minLength: 200, maxLength: 600 },
        ),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        async (spec, lfOnlyHead, a, b) => {
          // A long LF-only head exercises the counting fast path; the tail mixes CR and CRLF.
          const parts = spec.map(
            (s, i) =>
              `${String(i).padStart(5, "0")}${"x".repeat(s.len)}${lfOnlyHead && i < spec.length / 2 ? "\n" : s.brk}`,
          );
          const text = parts.join("");
          const file = path.join(dir, "f.txt");
          fs.writeFileSync(file, text);
          const all = naiveLines(text);
          const start = 1 + (a % all.length);
          const end = start + (b % 50);
          const fh = await fs.promises.open(file);
          try {
            const r = await rangeLines(fh, "f.txt", start, end);
            expect(r.lines.map((l) => l.text)).toEqual(all.slice(start - 1, end));
            expect(r.more).toBe(end < all.length);
          } finally {
            await fh.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("reads the last 100 lines of a multi-megabyte file", async () => {
    const dir = area.tree("big");
    const file = path.join(dir, "big.txt");
    const n = 60_000;
    fs.writeFileSync(
      file,
      `${Array.from({ length: n }, (_, i) => `line ${i + 1} ${"y".repeat(60)}`).join("\n")}\n`,
    );
    const fh = await fs.promises.open(file);
    try {
      const r = await rangeLines(fh, "f.txt", n - 99, n);
      expect(r.lines).toHaveLength(100);
      expect(r.lines[0]!.text).toMatch(new RegExp(`^line ${n - 99} `));
      expect(r.lines[99]!.text).toMatch(new RegExp(`^line ${n} `));
      expect(r.more).toBe(false);
    } finally {
      await fh.close();
    }
  });
});
