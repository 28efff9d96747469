import { describe, expect, it } from "vitest";
import { clientMessage } from "../../surfaces/wording.js";
import { ToolError } from "../errors.js";
import { parseDoc, printDoc } from "../text/document.js";
import { fencedDiff, unifiedDiff } from "./diff.js";
import { type Edit, type EditOptions, editKeepingEndings } from "./edit.js";

/** The engine through its public entry (an LF text without BOM is edited as it is). */
const applyEdits = (text: string, edits: readonly Edit[], opts?: EditOptions) =>
  editKeepingEndings(text, edits, opts).result;

const detectFormat = (text: string) => {
  const { eol, bom, mixed } = parseDoc(text);
  return { eol, bom, mixed };
};

/** The edit that cannot be made, as the engine reports it: a data error with an `edit_*` reason. */
function failure(fn: () => unknown): ToolError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ToolError && err.detail.reason?.startsWith("edit_")) return err;
    throw err;
  }
  throw new Error("expected an edit error");
}

describe("text format", () => {
  it("detects LF, CRLF, mixed and BOM, and restores them", () => {
    expect(detectFormat("a\nb\n")).toEqual({ eol: "\n", bom: false, mixed: false });
    expect(detectFormat("a\r\nb\r\n")).toEqual({ eol: "\r\n", bom: false, mixed: false });
    expect(detectFormat("a\r\nb\r\nc\n")).toEqual({ eol: "\r\n", bom: false, mixed: true });
    expect(detectFormat("no newline")).toEqual({ eol: "\n", bom: false, mixed: false });
    const src = "\uFEFFx\r\ny\r\n";
    const doc = parseDoc(src);
    expect(doc).toMatchObject({ body: "x\ny\n", eol: "\r\n", bom: true });
    expect(printDoc(doc)).toBe(src);
    expect(printDoc(parseDoc("p\nq"))).toBe("p\nq");
  });

  it("keeps a lone CR as content", () => {
    const doc = parseDoc("a\rb\n");
    expect(doc.body).toBe("a\rb\n");
    expect(printDoc(doc)).toBe("a\rb\n");
  });
});

describe("diff", () => {
  it("uses the official header layout with a tab before original/modified", () => {
    const d = unifiedDiff("/r/f.txt", "a\nb\nc\n", "a\nB\nc\n");
    expect(d).toBe(
      "Index: /r/f.txt\n" +
        "===================================================================\n" +
        "--- /r/f.txt\toriginal\n+++ /r/f.txt\tmodified\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    );
  });

  it("fences with one more backtick than the longest run inside", () => {
    expect(fencedDiff("x\n")).toBe("```diff\nx\n```\n\n");
    expect(fencedDiff("has ``` and ```` inside\n")).toBe("`````diff\nhas ``` and ```` inside\n`````\n\n");
  });

  it("compares CRLF and LF alike", () => {
    expect(unifiedDiff("f", "a\r\nb\r\n", "a\nb\n")).not.toContain("@@");
  });
});

describe("edit engine", () => {
  it("replaces a unique exact match, with $ patterns literal", () => {
    const r = applyEdits("one\ntwo\nthree\n", [{ oldText: "two", newText: "$& $1 2" }]);
    expect(r.text).toBe("one\n$& $1 2\nthree\n");
    expect(r.changed).toBe(true);
    expect(r.matches).toEqual([{ index: 0, kind: "exact", lines: [2], reindented: false }]);
  });

  it("refuses an oldText that matches more than once, naming the lines", () => {
    const e = failure(() =>
      applyEdits("x = 1\ny = 2\nx = 1\n\nx = 1\n", [{ oldText: "x = 1", newText: "z" }]),
    );
    expect(e.detail.reason).toBe("edit_ambiguous");
    expect(e.detail.edit?.lines).toEqual([1, 3, 5]);
    expect(clientMessage(e)).toContain("matches 3 times, at lines 1, 3, 5");
  });

  it("counts overlapping occurrences as ambiguous", () => {
    expect(failure(() => applyEdits("aaa", [{ oldText: "aa", newText: "b" }])).detail.reason).toBe(
      "edit_ambiguous",
    );
  });

  it("replaces every occurrence with replaceAll", () => {
    const r = applyEdits("x.a\nx.b\nx.c\n", [{ oldText: "x.", newText: "y.", replaceAll: true }]);
    expect(r.text).toBe("y.a\ny.b\ny.c\n");
    expect(r.matches[0]!.lines).toEqual([1, 2, 3]);
  });

  it("refuses an empty oldText", () => {
    const e = failure(() => applyEdits("abc", [{ oldText: "", newText: "x" }]));
    expect(e.detail.reason).toBe("edit_empty");
    expect(clientMessage(e)).toContain("oldText is empty");
  });

  it("names the surface's own parameters", () => {
    const e = failure(() =>
      applyEdits("a a", [{ oldText: "a", newText: "b" }], {
        names: { oldText: "old_string", replaceAll: "replace_all" },
      }),
    );
    expect(clientMessage(e)).toContain("old_string matches 2 times");
    expect(clientMessage(e)).toContain("set replace_all");
  });

  it("reports no match with the official message", () => {
    const e = failure(() => applyEdits("abc\n", [{ oldText: "zzz", newText: "y" }]));
    expect(e.detail.reason).toBe("edit_not_found");
    expect(clientMessage(e)).toBe("Could not find exact match for edit:\nzzz");
  });

  it("keeps nested indentation right in the whitespace-tolerant match (reference §5 example)", () => {
    const file = "function f() {\n    if (x) {\n        foo();\n        bar();\n    }\n}\n";
    const r = applyEdits(file, [
      {
        oldText: "if (x) {\n    foo();\n    bar();\n}",
        newText: "if (y) {\n    foo();\n        nested();\n    bar();\n}",
      },
    ]);
    expect(r.text).toBe(
      "function f() {\n    if (y) {\n        foo();\n            nested();\n        bar();\n    }\n}\n",
    );
    expect(r.matches[0]).toMatchObject({ kind: "tolerant", lines: [2], reindented: true });
  });

  it("maps a different indent unit (2 spaces given, 4 in the file)", () => {
    const file = "class A:\n    def f(self):\n        return 1\n";
    const r = applyEdits(file, [
      { oldText: "def f(self):\n  return 1", newText: "def f(self):\n  if x:\n    return 2\n  return 1" },
    ]);
    expect(r.text).toBe(
      "class A:\n    def f(self):\n        if x:\n            return 2\n        return 1\n",
    );
  });

  it("re-indents with tabs in a tab-indented file", () => {
    const file = "func main() {\n\tif ok {\n\t\trun()\n\t}\n}\n";
    const r = applyEdits(file, [
      { oldText: "if ok {\n    run()\n}", newText: "if ok {\n    run()\n    stop()\n}" },
    ]);
    expect(r.text).toBe("func main() {\n\tif ok {\n\t\trun()\n\t\tstop()\n\t}\n}\n");
  });

  it("refuses an ambiguous whitespace-tolerant match", () => {
    const file = "  a\n  b\n\n    a\n    b\n";
    const e = failure(() => applyEdits(file, [{ oldText: "a\nb", newText: "c" }]));
    expect(e.detail.reason).toBe("edit_ambiguous");
    expect(e.detail.edit?.lines).toEqual([1, 4]);
  });

  it("exact-only mode does not fall back to the tolerant match", () => {
    const file = "    if (x) {\n        y();\n    }\n";
    expect(
      failure(() => applyEdits(file, [{ oldText: "if (x) {\n    y();\n}", newText: "" }], { match: "exact" }))
        .detail.reason,
    ).toBe("edit_not_found");
  });

  it("deletes whole lines in the tolerant match", () => {
    const r = applyEdits("a\n  b  \nc\n", [{ oldText: "b\n", newText: "" }]);
    expect(r.text).toBe("a\nc\n");
  });

  it("applies edits sequentially, each seeing the previous result", () => {
    const r = applyEdits("alpha\n", [
      { oldText: "alpha", newText: "beta" },
      { oldText: "beta", newText: "gamma" },
    ]);
    expect(r.text).toBe("gamma\n");
  });

  it("is all-or-nothing: a failing later edit raises before anything is returned", () => {
    const e = failure(() =>
      applyEdits("a\nb\n", [
        { oldText: "a", newText: "A" },
        { oldText: "missing", newText: "x" },
      ]),
    );
    expect(e.detail.edit?.index).toBe(1);
    expect(clientMessage(e)).toContain("edit 2 of 2; no edit was applied");
  });

  it("non-sequential mode locates every edit in the original and refuses overlaps", () => {
    const r = applyEdits(
      "a\nb\n",
      [
        { oldText: "a", newText: "b" },
        { oldText: "b", newText: "c" },
      ],
      { sequential: false },
    );
    expect(r.text).toBe("b\nc\n");
    const e = failure(() =>
      applyEdits(
        "abc\n",
        [
          { oldText: "ab", newText: "x" },
          { oldText: "bc", newText: "y" },
        ],
        { sequential: false },
      ),
    );
    expect(e.detail.reason).toBe("edit_overlap");
  });

  it("an empty edit list changes nothing", () => {
    expect(applyEdits("x\n", [])).toEqual({ text: "x\n", changed: false, matches: [] });
  });

  it("accepts CRLF in oldText/newText against the LF body", () => {
    expect(applyEdits("a\nb\nc\n", [{ oldText: "a\r\nb", newText: "x\r\ny" }]).text).toBe("x\ny\nc\n");
  });
});
