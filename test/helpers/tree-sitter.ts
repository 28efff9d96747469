/**
 * The code tools' grammars loaded in the test's own process, from the packages languages.ts names (the server
 * parses in its worker, which the unit tier cannot start): for unit tests of what is read from a tree.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import treeSitter, { type Tree } from "@vscode/tree-sitter-wasm";
import { GRAMMAR_PACKAGES, type GrammarId, RUNTIME_PACKAGE } from "../../src/core/code/languages.js";

const { Language, Parser } = treeSitter;
const MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules");

let ready: Promise<InstanceType<typeof Parser>> | undefined;
const languages = new Map<GrammarId, Promise<InstanceType<typeof Language>>>();

/** `text` parsed with one grammar (the caller deletes the tree). */
export async function parseWith(grammar: GrammarId, text: string): Promise<Tree> {
  ready ??= Parser.init({ locateFile: () => path.join(MODULES, RUNTIME_PACKAGE, "tree-sitter.wasm") }).then(
    () => new Parser(),
  );
  const parser = await ready;
  let language = languages.get(grammar);
  if (!language) {
    const file = path.join(MODULES, GRAMMAR_PACKAGES[grammar], `tree-sitter-${grammar}.wasm`);
    language = Language.load(fs.readFileSync(file));
    languages.set(grammar, language);
  }
  parser.setLanguage(await language);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`${grammar}: no tree`);
  return tree;
}
