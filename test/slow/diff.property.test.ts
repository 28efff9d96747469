/**
 * Property and differential: the diff over only the changed lines against the diff library's whole-text
 * diff, on random pairs of texts (few repeated lines, so ambiguous alignments are common) and on edits of
 * distinct lines. The examples are unit tests beside the module (src/core/edit/diff.test.ts).
 */
import { applyPatch, createTwoFilesPatch, parsePatch, structuredPatch } from "diff";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gitStyleDiff, unifiedDiff } from "../../src/core/edit/diff.js";

/** Texts from a few repeated lines, so ambiguous alignments are common. */
const text = (alphabet: string[]) =>
  fc
    .array(fc.constantFrom(...alphabet), { maxLength: 30 })
    .chain((lines) =>
      fc.constantFrom(lines.join("\n"), `${lines.join("\n")}\n`).map((t) => (lines.length ? t : "")),
    );
const changed = (hunks: { lines: string[] }[]) =>
  hunks.flatMap((h) => h.lines).filter((l) => l.startsWith("+") || l.startsWith("-")).length;

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
});
