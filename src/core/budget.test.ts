import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANY_COUNT, byteLength, finalCut, ReplyBudget, widest } from "./budget.js";

/** The line a reply the final cut shortened ends with, as a client reads it. */
const cutNote = (max: number) =>
  `\n[mcpfs: reply cut at the ${max}-byte budget; ask for less to see the rest: a line range, a sub-path, a narrower pattern or fewer results.]`;

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
          expect(cut!.at(-1)!.endsWith(cutNote(max))).toBe(true);
          for (const [i, t] of cut!.entries()) {
            const body = i === cut!.length - 1 ? t.slice(0, t.length - cutNote(max).length) : t;
            expect(texts[i]!.startsWith(body)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("finalCut on a line boundary", () => {
  it("ends the cut text at the last whole line that fits, then its note", () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n");
    const [cut] = finalCut([lines], 300)!;
    const body = cut!.slice(0, cut!.length - cutNote(300).length);
    expect(body.endsWith("\n")).toBe(true);
    expect(lines.startsWith(body)).toBe(true);
  });
});

describe("ReplyBudget (the one place reply sizes are counted)", () => {
  it("takes what fits, refuses what does not, counts UTF-8 bytes", () => {
    const b = new ReplyBudget(10);
    expect(b.take("ééé")).toBe(true); // 6 bytes
    expect(b.remaining).toBe(4);
    expect(b.fits("abcd")).toBe(true);
    expect(b.fits("abcde")).toBe(false);
    expect(b.take("é€")).toBe(false); // 5 bytes: nothing taken
    expect(b.remaining).toBe(4);
    expect(b.sizeOf("€")).toBe(3);
  });

  it("holds a note's own room until it is closed, then takes the real note", () => {
    const b = new ReplyBudget(100);
    const note = (n: number) => `[${n} more]`;
    const close = b.reserve(note(ANY_COUNT));
    expect(b.remaining).toBe(100 - byteLength(note(ANY_COUNT)));
    expect(b.take("x".repeat(b.remaining))).toBe(true);
    expect(b.remaining).toBe(0);
    expect(close(note(7))).toBe("[7 more]");
    // A second close does not release the room twice.
    expect(close("")).toBe("");
    expect(b.remaining).toBe(byteLength(note(ANY_COUNT)) - byteLength("[7 more]"));
  });

  it("fit: the text whole when it fits, else a cut on whole characters (or lines) and the note, within the limit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 30 }), { maxLength: 40 }),
        fc.integer({ min: 40, max: 400 }),
        fc.boolean(),
        (parts, limit, onLines) => {
          const text = parts.join("\n");
          const b = new ReplyBudget(limit);
          const r = b.fit(text, "\n[cut]", onLines);
          expect(byteLength(r.text)).toBeLessThanOrEqual(limit);
          if (byteLength(text) <= limit) expect(r).toEqual({ text, truncated: false });
          else {
            expect(r.truncated).toBe(true);
            expect(r.text.endsWith("\n[cut]")).toBe(true);
            const body = r.text.slice(0, -"\n[cut]".length);
            expect(text.startsWith(body)).toBe(true);
            if (onLines && body.includes("\n")) expect(body.endsWith("\n")).toBe(true);
          }
        },
      ),
      {
        numRuns: 300,
        examples: [
          [
            [
              "",
              "\u{10000}\u0800\u{10000}\u0800\u0800\u{10000}\u{10000}\u{10000}\u{10000}",
              "\u00a0\u0800",
              "",
            ],
            40,
            true,
          ],
        ],
      },
    );
  });

  it("fitLines: every line when all fit (no note), else whole lines and a note that fit together", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), { maxLength: 200 }),
        fc.integer({ min: 64, max: 2000 }),
        fc.boolean(),
        (lines, limit, anyway) => {
          const b = new ReplyBudget(limit);
          const note = (n: number) => `\n[showing ${n} of ${lines.length}; ask for the rest]`;
          const { kept, note: closing } = b.fitLines(lines, note, anyway);
          const text = lines.slice(0, kept).join("\n") + (closing ?? "");
          expect(byteLength(text)).toBeLessThanOrEqual(limit);
          if (closing === undefined) {
            expect(anyway).toBe(false);
            expect(kept).toBe(lines.length);
          } else expect(closing).toBe(note(kept));
          // Nothing that would have fitted was left out: one more line (with its separator) would pass the
          // room left beside the note held at its widest.
          if (kept < lines.length) {
            const upTo = lines.slice(0, kept + 1).reduce((n, l) => n + byteLength(l) + 1, 0);
            expect(upTo + byteLength(note(ANY_COUNT))).toBeGreaterThan(limit);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("atMost bounds how many pieces of a size can still fit; widest picks the longest in bytes", () => {
    const b = new ReplyBudget(1000);
    b.take("x".repeat(100));
    expect(b.atMost(30)).toBe(30);
    expect(widest(["abc", "éé", "ab"])).toBe("éé");
  });
});
