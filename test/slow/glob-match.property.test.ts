/**
 * Property and differential: the linear-time glob compiler against picomatch itself (the semantics it keeps)
 * on random globs built from every construct it accepts and random relative paths of the shape walkers
 * produce; `compileGlobAny` against each of its globs. The examples and hostile cases are unit tests beside
 * the module (src/core/search/glob-match.test.ts).
 */
import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { compileGlob, compileGlobAny } from "../../src/core/search/glob-match.js";

const RUNS = 3000;

/** Pieces of a segment: literals, wildcards, classes, braces, ranges, extglobs (never `!(…)`). */
const piece = fc.constantFrom(
  "a",
  "b",
  "ab",
  ".",
  "-",
  "*",
  "**",
  "?",
  "[ab]",
  "[a-c]",
  "[!a]",
  "[^b]",
  "{a,b}",
  "{a,}",
  "{ab,b*}",
  "{1..3}",
  "@(a|b)",
  "?(a)",
  "+(a|b)",
  "*(b)",
  "\\*",
  "[[:alpha:]]",
);
const segment = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
const glob = fc
  .tuple(
    fc.constantFrom("", "!", "./", "**/"),
    fc.array(fc.oneof(segment, fc.constant("**")), { minLength: 1, maxLength: 4 }),
  )
  .map(([prefix, segs]) => prefix + segs.join("/"));
const name = fc.stringMatching(/^[ab.\-12*]{1,5}$/).filter((s) => s !== "." && s !== "..");
const relPath = fc.array(name, { minLength: 1, maxLength: 5 }).map((s) => s.join("/"));

describe("compileGlob keeps picomatch's semantics", () => {
  it(`agrees with picomatch (dot: true) on random globs and paths (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(glob, fc.array(relPath, { minLength: 1, maxLength: 8 }), (g, paths) => {
        const ours = compileGlob(g);
        const theirs = picomatch(g, { dot: true });
        for (const p of paths) expect(ours(p), `${g} vs ${p}`).toBe(theirs(p));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("compileGlobAny", () => {
  it(`matches exactly when one of its globs does (${RUNS / 3} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 5 }),
        fc.array(relPath, { minLength: 1, maxLength: 8 }),
        (globs, paths) => {
          const any = compileGlobAny(globs);
          const each = globs.map((g) => compileGlob(g));
          for (const p of paths) expect(any(p), `${globs.join(" ")} vs ${p}`).toBe(each.some((t) => t(p)));
        },
      ),
      { numRuns: RUNS / 3 },
    );
  });
});
