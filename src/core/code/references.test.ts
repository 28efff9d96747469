import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RefTag } from "./extract.js";
import { type FileReferences, occurrencesInRows, referenceRows } from "./references.js";

const REFERENCES_HEADER =
  "[syntactic matches, not type-resolved; an untagged line has the tag of the line above]";

const TAGS: RefTag[] = ["definition", "call", "import", "type", "other"];

/**
 * The rows read back as a model reads them: a path line, then `line tags: text`, `line: text` (the tags of the
 * line above) or `line import` (an import, no text). `text` is undefined where the reply leaves it out.
 */
function readBack(rows: string[]): { path: string; line: number; tags: string; text?: string }[] {
  expect(rows[0]).toBe(REFERENCES_HEADER);
  const hits: { path: string; line: number; tags: string; text?: string }[] = [];
  let path = "";
  let above = "";
  for (const row of rows.slice(1)) {
    const m = /^(\d+)(?: ([a-z,]+))?(?:: (.*))?$/.exec(row);
    if (!m) {
      path = row;
      above = "";
      continue;
    }
    const tags = m[2] ?? above;
    expect(tags, `a file's first row carries its tags: ${row}`).not.toBe("");
    hits.push({ path, line: Number(m[1]), tags, text: m[3] });
    above = tags;
  }
  return hits;
}

describe("referenceRows (find_references' reply)", () => {
  it("tags a run once, shows an import by its line alone, and tags each file's first row", () => {
    const files: FileReferences[] = [
      {
        path: "core/a.ts",
        lines: [
          { line: 2, tags: ["import"], text: 'import { X } from "./x.js";', count: 1 },
          { line: 10, tags: ["call"], text: "new X(1);", count: 1 },
          { line: 11, tags: ["call"], text: "new X(2);", count: 1 },
          { line: 12, tags: ["type"], text: "let y: X;", count: 1 },
          { line: 13, tags: ["call"], text: "new X(3);", count: 1 },
          { line: 14, tags: ["call", "type"], text: "f(X) as X;", count: 1 },
        ],
      },
      { path: "core/b.ts", lines: [{ line: 5, tags: ["call"], text: "new X(4);", count: 1 }] },
    ];
    expect(referenceRows(files)).toEqual([
      REFERENCES_HEADER,
      "core/a.ts",
      "2 import",
      "10 call: new X(1);",
      "11: new X(2);",
      "12 type: let y: X;",
      "13 call: new X(3);",
      "14 call,type: f(X) as X;",
      "core/b.ts",
      "5 call: new X(4);",
    ]);
  });

  it("a line after an import carries its tags, and consecutive imports each say so", () => {
    const rows = referenceRows([
      {
        path: "m.py",
        lines: [
          { line: 1, tags: ["import"], text: "from x import X", count: 1 },
          { line: 2, tags: ["import"], text: "import X", count: 1 },
          { line: 4, tags: ["other"], text: "X.y", count: 1 },
        ],
      },
    ]);
    expect(rows.slice(1)).toEqual(["m.py", "1 import", "2 import", "4 other: X.y"]);
  });

  it("escapes a path's control characters, so a name cannot forge rows", () => {
    const rows = referenceRows([
      { path: "a\n12 call: b.ts", lines: [{ line: 1, tags: ["call"], text: "X()", count: 1 }] },
    ]);
    expect(rows.slice(1)).toEqual(["a\\x0a12 call: b.ts", "1 call: X()"]);
  });

  it("every hit keeps its line and its tags, and its text unless it is only an import", () => {
    const line = fc.record({
      line: fc.integer({ min: 1, max: 5000 }),
      tags: fc.uniqueArray(fc.constantFrom(...TAGS), { minLength: 1, maxLength: 2 }),
      text: fc.string({ minLength: 1, maxLength: 40 }).map((t) => `${t.replace(/\s/g, "_")}X`),
      count: fc.integer({ min: 1, max: 3 }),
    });
    const file = fc.record({
      path: fc.stringMatching(/^[a-z]{1,6}\/[a-z]{1,6}\.ts$/),
      lines: fc.array(line, { minLength: 1, maxLength: 12 }),
    });
    fc.assert(
      fc.property(fc.array(file, { maxLength: 6 }), (files) => {
        const want = files.flatMap((f) =>
          f.lines.map((l) => ({
            path: f.path,
            line: l.line,
            tags: l.tags.join(","),
            text: l.tags.join(",") === "import" ? undefined : l.text,
          })),
        );
        expect(readBack(referenceRows(files))).toEqual(want);
      }),
    );
  });

  it("counts the occurrences a cut reply shows: those of the line rows among its first rows", () => {
    const files: FileReferences[] = [
      {
        path: "a.ts",
        lines: [
          { line: 1, tags: ["definition"], text: "let x = 1;", count: 1 },
          { line: 2, tags: ["other"], text: "x + x", count: 2 },
        ],
      },
      { path: "b.ts", lines: [{ line: 7, tags: ["call"], text: "f(x, x, x)", count: 3 }] },
    ];
    // Rows: header, a.ts, 1, 2, b.ts, 7.
    expect(referenceRows(files)).toHaveLength(6);
    expect([0, 1, 2, 3, 4, 5, 6].map((kept) => occurrencesInRows(files, kept))).toEqual([
      0, 0, 0, 1, 3, 3, 6,
    ]);
  });
});
