/**
 * A text parsed by a reading (languages.ts): with each of its grammars in turn until one finds no syntax
 * error, keeping the tree with the fewest (the earlier grammar's on a tie). Runs in the parser worker.
 */
import type { Tree } from "@vscode/tree-sitter-wasm";
import { syntaxFaults } from "./extract.js";
import { type GrammarId, grammarsOf, type Reading } from "./languages.js";

export interface ReadTree {
  tree: Tree;
  /** The grammar that read it (whose rules find its symbols). */
  grammar: GrammarId;
  /** Its syntax errors (extract.ts `syntaxFaults`), and the line of the first (0: none). */
  errors: number;
  firstError: number;
}

/** `parse` reads the text with one grammar; every tree but the one returned is deleted. */
export async function readTree(
  reading: Reading,
  text: string,
  parse: (grammar: GrammarId) => Promise<Tree>,
): Promise<ReadTree> {
  let best: ReadTree | undefined;
  try {
    for (const grammar of grammarsOf(reading)) {
      const tree = await parse(grammar);
      const { count: errors, firstLine: firstError } = syntaxFaults(tree.rootNode, grammar, text);
      if (best === undefined || errors < best.errors) {
        best?.tree.delete();
        best = { tree, grammar, errors, firstError };
      } else tree.delete();
      if (best.errors === 0) break;
    }
  } catch (err) {
    best?.tree.delete();
    throw err;
  }
  return best!;
}
