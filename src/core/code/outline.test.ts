import { describe, expect, it } from "vitest";
import type { SymbolNode } from "./extract.js";
import type { SymbolKind } from "./languages.js";
import { outlineLines, symbolCount } from "./outline.js";
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
