/**
 * Which grammar reads which file, and which of a grammar's nodes define a symbol. The grammars are the
 * WebAssembly builds VS Code ships (`@vscode/tree-sitter-wasm`, one tree-sitter runtime for all of them);
 * it has no C grammar, so C reads with the C++ one (a superset of C's syntax: only C code that names a
 * variable `class`, `new` or `this` parses with an error there).
 */
import path from "node:path";

export type GrammarId =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "rust"
  | "java"
  | "c-sharp"
  | "cpp"
  | "ruby"
  | "php";

/** Every grammar mcpfs ships: the file `tree-sitter-<id>.wasm` (the bundle copies exactly these). */
export const GRAMMARS: readonly GrammarId[] = [
  "typescript",
  "tsx",
  "javascript",
  "python",
  "go",
  "rust",
  "java",
  "c-sharp",
  "cpp",
  "ruby",
  "php",
];

/** A file's language: a grammar, Markdown (headings) or none. */
export type Language = GrammarId | "markdown";

const BY_EXTENSION: Record<string, Language> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".cs": "c-sharp",
  ".c": "cpp",
  ".h": "cpp",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".rb": "ruby",
  ".php": "php",
  ".md": "markdown",
  ".markdown": "markdown",
};

/** The language of a file by its name; `undefined` when mcpfs has no grammar for it. */
export function languageOf(file: string): Language | undefined {
  return BY_EXTENSION[path.extname(file).toLowerCase()];
}

/** What a definition is, in one vocabulary across languages. */
export type SymbolKind =
  | "class"
  | "interface"
  | "struct"
  | "enum"
  | "type"
  | "trait"
  | "impl"
  | "module"
  | "namespace"
  | "function"
  | "method"
  | "constructor"
  | "property"
  | "field"
  | "variable"
  | "constant"
  | "macro"
  | "heading";

export const SYMBOL_KINDS: readonly SymbolKind[] = [
  "class",
  "interface",
  "struct",
  "enum",
  "type",
  "trait",
  "impl",
  "module",
  "namespace",
  "function",
  "method",
  "constructor",
  "property",
  "field",
  "variable",
  "constant",
  "macro",
  "heading",
];
