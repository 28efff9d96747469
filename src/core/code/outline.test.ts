import { describe, expect, it } from "vitest";
import type { SymbolNode } from "./extract.js";
import type { SymbolKind } from "./languages.js";
import { outlineLines, symbolCount, symbolLine } from "./outline.js";
import { flatten } from "./symbols.js";

function node(line: number, kind: SymbolKind, name: string, children: SymbolNode[] = []): SymbolNode {
  return { name, kind, startLine: line, endLine: line, start: 0, end: 0, signature: "", children };
}

// class A { x; m() { inner() {} } y; }  function f() {}  class B { n() {} }
const TREE = [
  node(1, "class", "A", [
    node(2, "field", "x"),
    node(3, "method", "m", [node(4, "function", "inner")]),
    node(5, "field", "y"),
  ]),
  node(7, "function", "f"),
  node(8, "class", "B", [node(9, "method", "n")]),
];
/** Each symbol's index in `flatten`'s order, by name. */
const INDEX = new Map(flatten(TREE).map((f, i) => [f.symbol.name, i]));
const at = (name: string) => INDEX.get(name)!;

describe("outlineLines (the indices an outline pages by)", () => {
  it("gives each line its symbol's index in flatten's order, with every depth", () => {
    const lines = outlineLines(TREE, { signatures: false });
    expect(lines.map((l) => l.text.trim())).toEqual([
      "L1 class A { x, y }",
      "L3 method m",
      "L4 function inner",
      "L7 function f",
      "L8 class B",
      "L9 method n",
    ]);
    expect(lines.map((l) => l.index)).toEqual(["A", "m", "inner", "f", "B", "n"].map(at));
    expect(symbolCount(TREE)).toBe(INDEX.size);
  });

  it("keeps the indices when depth hides symbols: a page goes on from the same place at any depth", () => {
    const top = outlineLines(TREE, { depth: 1, signatures: false });
    expect(top.map((l) => l.text)).toEqual(["L1 class A", "L7 function f", "L8 class B"]);
    expect(top.map((l) => l.index)).toEqual(["A", "f", "B"].map(at));
    const two = outlineLines(TREE, { depth: 2, signatures: false });
    expect(two.map((l) => l.index)).toEqual(["A", "m", "f", "B", "n"].map(at));
  });
});

const sym = (name: string, kind: SymbolNode["kind"], signature: string): SymbolNode => ({
  name,
  kind,
  signature,
  startLine: 1,
  endLine: 1,
  start: 0,
  end: signature.length,
  children: [],
});

/** The outline line of a one-line symbol, without its `L1 `. */
const lean = (s: SymbolNode, language?: string) => symbolLine(s, true, language).slice(3);

describe("outline signatures", () => {
  it("drops const/let/var before the name, and a value's initialiser", () => {
    expect(lean(sym("LIMIT", "constant", "export const LIMIT = 3"))).toBe("export LIMIT");
    expect(lean(sym("f", "function", "const f = (a: number) =>"))).toBe("f = (a: number) =>");
  });

  it("keeps a const that belongs to the return type (C, C++)", () => {
    expect(lean(sym("buf_strerror", "function", "const char *buf_strerror(buf_err_t e)"), "cpp")).toBe(
      "const char *buf_strerror(buf_err_t e)",
    );
  });

  it("folds fields into their owner's line with one brace, also where the signature ends with one (Go)", () => {
    const stats = { ...sym("Stats", "struct", "Stats struct {"), endLine: 4 };
    stats.children = [sym("Gets", "field", "Gets int"), sym("Puts", "field", "Puts int")];
    expect(outlineLines([stats], { language: "go" }).map((l) => l.text)).toEqual([
      "L1-4 Stats struct { Gets, Puts }",
    ]);
  });
});
