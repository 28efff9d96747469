import { describe, expect, it } from "vitest";
import { parseWith } from "../../../test/helpers/tree-sitter.js";
import { extractSymbols, leadingStart, syntaxFaults } from "./extract.js";
import type { GrammarId } from "./languages.js";

async function rootOf(grammar: GrammarId, text: string) {
  return (await parseWith(grammar, text)).rootNode;
}

describe("extract", () => {
  it("a signature stops before comments between the header and the body", async () => {
    const text = "class A:\n    # doc for m\n    def m(self):\n        return 1\n";
    const [a] = extractSymbols(await rootOf("python", text), "python", text);
    expect(a!.signature).toBe("class A");
  });

  it("counts Python's indentation errors, which the tree does not mark", async () => {
    const ok = "class P:\n    def a(self):\n        x = 1; y = 2\n        return x\n";
    expect(syntaxFaults(await rootOf("python", ok), "python", ok)).toEqual({ count: 0, firstLine: 0 });
    const empty = "class P:\n    def a(self):\n    return 10\n";
    expect(syntaxFaults(await rootOf("python", empty), "python", empty)).toEqual({ count: 1, firstLine: 3 });
    const unaligned = "def a():\n        x = 1\n      return x\n";
    expect(syntaxFaults(await rootOf("python", unaligned), "python", unaligned)).toEqual({
      count: 1,
      firstLine: 3,
    });
  });

  it("a definition's lead takes its doc comment and attributes, not a comment after code or past a blank line", async () => {
    const text =
      "// file note\n\n/// What happened.\n#[derive(Debug)]\npub enum Event { A }\nfn f() {} // trailing\nfn g() {}\n";
    const root = await rootOf("rust", text);
    expect(leadingStart(root, text, text.indexOf("pub enum"))).toBe(text.indexOf("/// What"));
    expect(leadingStart(root, text, text.indexOf("fn g"))).toBe(text.indexOf("fn g"));
  });
});
