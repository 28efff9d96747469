import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { byteLength, FINAL_CUT_NOTE, finalCut } from "../../src/core/budget.js";

describe("finalCut (the runner's last guard)", () => {
  it("leaves replies within the budget alone", () => {
    expect(finalCut(["abc", "déf"], 100)).toBeUndefined();
  });

  it("holds any set of text blocks to the budget, on whole characters, ending with its note", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 200, max: 600 }),
        (texts, max) => {
          const cut = finalCut(texts, max);
          const total = texts.reduce((n, t) => n + byteLength(t), 0);
          if (total <= max) {
            expect(cut).toBeUndefined();
            return;
          }
          expect(cut).toHaveLength(texts.length);
          expect(cut!.reduce((n, t) => n + byteLength(t), 0)).toBeLessThanOrEqual(max);
          expect(cut!.at(-1)!.endsWith(FINAL_CUT_NOTE(max))).toBe(true);
          for (const [i, t] of cut!.entries()) {
            const body = i === cut!.length - 1 ? t.slice(0, t.length - FINAL_CUT_NOTE(max).length) : t;
            expect(texts[i]!.startsWith(body)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
