import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GrepMatch } from "./grep-job.js";
import { HitSink } from "./hit-sink.js";
import { LineSearcher } from "./line-searcher.js";
import { compileMatcher } from "./matcher.js";

/** The hits a line-by-line reading gives: every line within `ctx` of a hit is its context. */
function naive(lines: string[], ctx: number, pattern: string): GrepMatch[] {
  const out: GrepMatch[] = [];
  lines.forEach((text, i) => {
    const col = text.indexOf(pattern);
    if (col < 0) return;
    const around = (from: number, to: number) =>
      lines
        .slice(Math.max(0, from), Math.max(0, to))
        .map((t, k) => ({ line: Math.max(0, from) + k + 1, text: t }));
    out.push({ path: "f", line: i + 1, text, before: around(i - ctx, i), after: around(i + 1, i + 1 + ctx) });
  });
  return ctx === 0 ? out.map((m) => ({ ...m, before: [], after: [] })) : out;
}

describe("LineSearcher feeding a HitSink", () => {
  it("finds each matching line with its context, however the file is cut into blocks", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom("a", "b ", "needle", "x"), { maxLength: 4 }).map((p) => p.join("")),
          {
            maxLength: 30,
          },
        ),
        fc.constantFrom(0, 1, 2),
        fc.boolean(),
        fc.array(fc.nat(5), { maxLength: 10 }),
        (lines, ctx, finalBreak, cuts) => {
          const text = lines.join("\n") + (finalBreak && lines.length > 0 ? "\n" : "");
          // The bytes before the last line break go in blocks of whole lines; the rest is the final block.
          const breaks = [...text.matchAll(/\n/g)].map((m) => m.index! + 1);
          const sink = new HitSink("f", ctx, (t) => t, false);
          const searcher = new LineSearcher(compileMatcher("needle", true, true), sink);
          let at = 0;
          let k = 0;
          for (const cut of cuts) {
            k += cut;
            if (k >= breaks.length) break;
            searcher.block(Buffer.from(text.slice(at, breaks[k])), false);
            at = breaks[k]!;
            k++;
          }
          searcher.block(Buffer.from(text.slice(at)), true);
          expect(sink.hits).toEqual(
            naive(text === "" ? [] : text.replace(/\n$/, "").split("\n"), ctx, "needle"),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stops at the first hit when the sink wants one, and a long line's windows give one hit", () => {
    const sink = new HitSink("f", 1, (t) => t, true);
    const searcher = new LineSearcher(compileMatcher("needle", true, true), sink);
    expect(searcher.block(Buffer.from("a\nneedle 1\nneedle 2\n"), false)).toBe(true);
    expect(sink.hits.map((h) => h.line)).toEqual([2]);

    const long = new HitSink("f", 1, (t) => t, false);
    const s2 = new LineSearcher(compileMatcher("needle", true, true), long);
    s2.block(Buffer.from("before\n"), false);
    expect(s2.window(Buffer.from("xx needle xx"))).toBe(false);
    expect(s2.window(Buffer.from("needle again"))).toBe(false);
    s2.block(Buffer.from("end of the long line\nafter\n"), true);
    expect(long.hits).toEqual([
      {
        path: "f",
        line: 2,
        text: "xx needle xx",
        before: [{ line: 1, text: "before" }],
        after: [{ line: 3, text: "after" }],
      },
    ]);
  });
});
