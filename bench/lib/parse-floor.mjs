/**
 * The floor under a directory outline: a fresh Node process that starts web-tree-sitter, loads the TypeScript
 * grammar and parses every .ts file below a directory once, on one thread, keeping nothing (no symbols, no
 * server, no worker). No tree-sitter outline of that tree can be faster; the code_tools bench sets it beside
 * `ctags -R` and the outline. Prints the number of files parsed.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import treeSitter from "@vscode/tree-sitter-wasm";

const dir = process.argv[2];
const wasm = path.dirname(createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm"));
const { Language, Parser } = treeSitter;
await Parser.init({ locateFile: (f) => path.join(wasm, f) });
const parser = new Parser();
parser.setLanguage(await Language.load(fs.readFileSync(path.join(wasm, "tree-sitter-typescript.wasm"))));
let n = 0;
for (const f of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
  if (!f.endsWith(".ts")) continue;
  parser.parse(fs.readFileSync(path.join(dir, f), "utf8"))?.delete();
  n++;
}
process.stdout.write(`${n}\n`);
