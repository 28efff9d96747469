/**
 * A reading's grammars against real code: C reads C that C++ refuses (a parameter named `new`), and a `.h`
 * header (`c-or-cpp`) is read by whichever of C and C++ finds fewer syntax errors, C first.
 */
import { describe, expect, it } from "vitest";
import { parseWith } from "../../../test/helpers/tree-sitter.js";
import { syntaxFaults } from "./extract.js";
import type { GrammarId, Reading } from "./languages.js";
import { readTree } from "./read-tree.js";

/** Valid C (gcc -fsyntax-only accepts it), as the Linux kernel's lists are written. */
const LIST_C = `struct node { struct node *next, *prev; };
static void list_add(struct node *new, struct node *head)
{ new->next = head->next; new->prev = head; head->next = new; }
`;

const GRAPH_H = `#pragma once
namespace graph {
class Node {
 public:
  template <typename T> T as() const;
};
}
`;

async function read(reading: Reading, text: string) {
  const tried: GrammarId[] = [];
  const r = await readTree(reading, text, (grammar) => {
    tried.push(grammar);
    return parseWith(grammar, text);
  });
  r.tree.delete();
  return { grammar: r.grammar, errors: r.errors, tried };
}

async function errorsWith(grammar: GrammarId, text: string): Promise<number> {
  const tree = await parseWith(grammar, text);
  try {
    return syntaxFaults(tree.rootNode, grammar, text).count;
  } finally {
    tree.delete();
  }
}

describe("readTree", () => {
  it("reads C that names a parameter `new` without error, where the C++ grammar finds errors", async () => {
    expect(await read("c", LIST_C)).toEqual({ grammar: "c", errors: 0, tried: ["c"] });
    expect(await errorsWith("cpp", LIST_C)).toBeGreaterThan(0);
  });

  it("reads a C header with C alone, and a C++ header with C++ after C found errors", async () => {
    const listH = "void list_add(struct node *new, struct node *head);\n";
    expect(await read("c-or-cpp", listH)).toEqual({ grammar: "c", errors: 0, tried: ["c"] });
    expect(await read("c-or-cpp", GRAPH_H)).toEqual({ grammar: "cpp", errors: 0, tried: ["c", "cpp"] });
  });

  it("keeps the tree with fewer errors when both find some, C's on a tie", async () => {
    const broken = "int f( {\n";
    const cases: [string, GrammarId, number, number][] = [
      // text, the grammar kept, C's errors, C++'s errors (each grammar's own count, asked apart)
      [LIST_C + broken, "c", 1, 4],
      [GRAPH_H + broken, "cpp", 3, 1],
      [broken, "c", 1, 1],
    ];
    for (const [text, grammar, c, cpp] of cases) {
      expect([await errorsWith("c", text), await errorsWith("cpp", text)], text).toEqual([c, cpp]);
      expect(await read("c-or-cpp", text), text).toEqual({
        grammar,
        errors: Math.min(c, cpp),
        tried: ["c", "cpp"],
      });
    }
  });
});
