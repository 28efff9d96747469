import { applyPatch, createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { gitStyleDiff, unifiedDiff } from "./diff.js";

/**
 * The diffs of edits are computed over only the lines that differ (plus context), with the line numbers of
 * the whole texts: the same result as the diff library's whole-text diff, at a fraction of its cost (random
 * pairs against it: test/slow/diff.property.test.ts).
 */
describe("unifiedDiff (the diff over only the changed lines)", () => {
  it("applies to the old text to give the new one where lines repeat, with or without a final newline", () => {
    for (const [a, b] of [
      ["a\nb\na\nb\n", "a\nb\nc\na\nb\n"],
      ["x\n\nx\n\nx", "x\n\nx"],
      ["", "one\n"],
      ["one\ntwo", "one\ntwo\n"],
    ] as const)
      expect(applyPatch(a, unifiedDiff("f", a, b)), JSON.stringify([a, b])).toBe(b);
  });

  it("unifiedDiff matches createTwoFilesPatch's output on an edit inside a long file", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `export const value${i} = ${i};`);
    const a = `${lines.join("\n")}\n`;
    const b = a.replace("value9999 = 9999;\n", "value9999 = -9999;\nextra line\n");
    expect(unifiedDiff("f", a, b)).toBe(createTwoFilesPatch("f", "f", a, b, "original", "modified"));
    expect(gitStyleDiff("f", a, a)).toBe("");
  });
});
