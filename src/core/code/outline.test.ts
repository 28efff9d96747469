import { describe, expect, it } from "vitest";
import type { SymbolNode } from "./extract.js";
import { outlineLines, symbolLine } from "./outline.js";

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
    expect(outlineLines([stats], { language: "go" })).toEqual(["L1-4 Stats struct { Gets, Puts }"]);
  });
});
