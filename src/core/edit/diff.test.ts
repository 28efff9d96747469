import { applyPatch, createTwoFilesPatch, parsePatch, structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gitStyleDiff, unifiedDiff } from "./diff.js";

/** Texts from a few repeated lines, so ambiguous alignments are common. */
const text = (alphabet: string[]) =>
  fc
    .array(fc.constantFrom(...alphabet), { maxLength: 30 })
    .chain((lines) =>
      fc.constantFrom(lines.join("\n"), `${lines.join("\n")}\n`).map((t) => (lines.length ? t : "")),
    );
const changed = (hunks: { lines: string[] }[]) =>
  hunks.flatMap((h) => h.lines).filter((l) => l.startsWith("+") || l.startsWith("-")).length;

/**
 * The diffs of edits are computed over only the lines that differ (plus context), with the line numbers of
 * the whole texts: the same result as the diff library's whole-text diff, at a fraction of its cost.
 */
describe("unifiedDiff (the diff over only the changed lines)", () => {
  it("is a valid diff of the whole texts, as small as the whole-text diff, for any pair", () => {
    const t = text(["a", "b", "c", "", "a b", "  x"]);
    fc.assert(
      fc.property(t, t, (a, b) => {
        const patch = unifiedDiff("f", a, b);
        expect(applyPatch(a, patch)).toBe(b);
        expect(changed(parsePatch(patch)[0]!.hunks)).toBe(
          changed(structuredPatch("f", "f", a, b, "", "", { context: 4 }).hunks),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("is exactly the whole-text diff when lines are distinct (an edit of ordinary code)", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const variant = fc.array(fc.constantFrom(...lines), { maxLength: 40 }).map((ls) => {
      const keep = new Set(ls);
      return lines.filter((l) => !keep.has(l));
    });
    fc.assert(
      fc.property(variant, variant, (x, y) => {
        const a = `${x.join("\n")}\n`;
        const b = `${y.join("\n")}\n`;
        expect(unifiedDiff("f", a, b)).toBe(createTwoFilesPatch("f", "f", a, b, "original", "modified"));
        // gitStyleDiff: 3 lines of context, the same hunks.
        const hunks = structuredPatch("f", "f", a, b, "", "", { context: 3 }).hunks;
        expect(changed(parsePatch(gitStyleDiff("f", a, b))[0]?.hunks ?? [])).toBe(changed(hunks));
      }),
      { numRuns: 2000 },
    );
  });

  it("unifiedDiff matches createTwoFilesPatch's output on an edit inside a long file", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `export const value${i} = ${i};`);
    const a = `${lines.join("\n")}\n`;
    const b = a.replace("value9999 = 9999;\n", "value9999 = -9999;\nextra line\n");
    expect(unifiedDiff("f", a, b)).toBe(createTwoFilesPatch("f", "f", a, b, "original", "modified"));
    expect(gitStyleDiff("f", a, a)).toBe("");
  });
});
