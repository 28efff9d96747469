/**
 * Which grammar reads which file, and which of a grammar's nodes define a symbol. The grammars are the
 * WebAssembly builds VS Code ships (`@vscode/tree-sitter-wasm`, one tree-sitter runtime for all of them), and
 * C's from the official grammar's package (VS Code ships none; the C++ grammar refused valid C that names a
 * variable `new`, `this` or `class`, as the Linux kernel does).
 */
import path from "node:path";

const VSCODE = "@vscode/tree-sitter-wasm/wasm";

/**
 * Every grammar mcpfs ships, and the package folder its `tree-sitter-<id>.wasm` comes from: the bundle copies
 * exactly these into `grammars/`, and the unbundled build reads them there in node_modules. tree-sitter-c is a
 * devDependency for its .wasm alone (its native binding is never loaded; the package needs none of it).
 */
export const GRAMMAR_PACKAGES = {
  typescript: VSCODE,
  tsx: VSCODE,
  javascript: VSCODE,
  python: VSCODE,
  go: VSCODE,
  rust: VSCODE,
  java: VSCODE,
  "c-sharp": VSCODE,
  c: "tree-sitter-c",
  cpp: VSCODE,
  ruby: VSCODE,
  php: VSCODE,
} as const;

export type GrammarId = keyof typeof GRAMMAR_PACKAGES;

export const GRAMMARS = Object.keys(GRAMMAR_PACKAGES) as GrammarId[];

/** The tree-sitter runtime's own WebAssembly (`tree-sitter.wasm`), beside the JavaScript that loads it. */
export const RUNTIME_PACKAGE = VSCODE;

/**
 * How a file is parsed: with one grammar, or `c-or-cpp` (a `.h` header, which may be C's or C++'s): with C,
 * then with C++ when C finds syntax errors, the tree with fewer kept (C's on a tie). Neither grammar alone
 * reads both: C++ refuses C that names a variable `new`, C refuses classes and templates, and C++ projects
 * name their headers `.h` as often as C ones do (of the 7,290 headers in a Debian /usr/include, 1,280 parse
 * without error in C++ only, 30 in C only).
 */
export type Reading = GrammarId | "c-or-cpp";

/** The grammars a reading tries, in order. */
export function grammarsOf(reading: Reading): readonly GrammarId[] {
  return reading === "c-or-cpp" ? ["c", "cpp"] : [reading];
}

/** A file's language: a reading by a grammar, Markdown (headings) or none. */
export type Language = Reading | "markdown";

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
  ".pyw": "python",
  ".go": "go",
  ".rs": "rust",
  ".java": "java",
  ".cs": "c-sharp",
  ".c": "c",
  ".h": "c-or-cpp",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".c++": "cpp",
  ".h++": "cpp",
  ".inl": "cpp",
  ".ipp": "cpp",
  ".tpp": "cpp",
  ".cppm": "cpp",
  ".ixx": "cpp",
  ".rb": "ruby",
  ".rake": "ruby",
  ".gemspec": "ruby",
  ".php": "php",
  ".md": "markdown",
  ".markdown": "markdown",
};

/** A script's language by the interpreter its `#!` line names (`#!/usr/bin/env python3`, `#!/usr/bin/node`). */
const BY_INTERPRETER: [RegExp, Language][] = [
  [/^python[\d.]*$/, "python"],
  [/^(node|nodejs|deno|bun)$/, "javascript"],
  [/^(ruby|jruby)[\d.]*$/, "ruby"],
  [/^php[\d.]*$/, "php"],
];

/**
 * The language of a file by its name; `undefined` when mcpfs has no grammar for it. A file without an
 * extension whose `text` is known is read by its `#!` line (a script in bin/).
 */
export function languageOf(file: string, text?: string): Language | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext !== "" || text === undefined || !text.startsWith("#!")) return BY_EXTENSION[ext];
  const words = text
    .slice(2, text.search(/\r?\n|$/))
    .trim()
    .split(/\s+/);
  const program = path.posix.basename(
    words[0] === "/usr/bin/env"
      ? (words.find((w, i) => i > 0 && !w.startsWith("-")) ?? "")
      : (words[0] ?? ""),
  );
  return BY_INTERPRETER.find(([re]) => re.test(program))?.[1];
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
