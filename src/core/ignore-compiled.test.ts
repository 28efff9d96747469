/**
 * The one reach into `ignore`'s internals (src/core/ignore-compiled.ts): with the pinned version the
 * compiled rules are found, and the last-match scan over them answers as the library's own `test` does.
 * If an upgrade moves them, this fails loudly (the walker would silently fall back to the slower path).
 */
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import { compiledRules } from "./ignore-compiled.js";

const LINES = ["*.log", "!keep.log", "build/", "/root-only.txt", "**/deep/*.tmp", "a?c", "[xy].md"];
const PATHS = [
  "x.log",
  "keep.log",
  "sub/keep.log",
  "build/",
  "build",
  "root-only.txt",
  "sub/root-only.txt",
  "q/deep/z.tmp",
  "abc",
  "x.md",
  "z.md",
  "plain.txt",
];

describe("ignore's compiled rules", () => {
  it("are found in the pinned version, one per rule line", () => {
    const ig = ignore({ allowRelativePaths: true }).add(LINES);
    const rules = compiledRules(ig);
    expect(rules, "ignore's internals moved: update src/core/ignore-compiled.ts").toBeDefined();
    expect(rules).toHaveLength(LINES.length);
  });

  it("scanned last match first, answer as ignore's own test does", () => {
    const ig = ignore({ allowRelativePaths: true }).add(LINES);
    const rules = compiledRules(ig)!;
    for (const p of PATHS) {
      let verdict = { ignored: false, unignored: false };
      for (let i = rules.length - 1; i >= 0; i--)
        if (rules[i]!.regex.test(p)) {
          verdict = rules[i]!.negative
            ? { ignored: false, unignored: true }
            : { ignored: true, unignored: false };
          break;
        }
      const lib = ig.test(p);
      expect({ p, ...verdict }).toEqual({ p, ignored: lib.ignored, unignored: lib.unignored });
    }
  });
});
