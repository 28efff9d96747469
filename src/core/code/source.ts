/** A code file read once through the verified open, and its symbols (parsed off the main thread). */
import { ToolError } from "../errors.js";
import { readSnapshot, type Snapshot } from "../files/snapshot.js";
import { printable } from "../paths.js";
import { decodeText, encodingOf } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";
import type { Occurrence, SymbolNode } from "./extract.js";
import { type Language, languageOf } from "./languages.js";
import { markdownSymbols } from "./markdown.js";
import { parseOccurrences, parseSymbols, parseUses } from "./parser-pool.js";

/** Files larger than this are not parsed (generated code, bundles): 2 MiB. */
export const MAX_CODE_BYTES = 2 * 1024 * 1024;

export interface CodeFile {
  target: ResolvedPath;
  language: Language | undefined;
  /** The text without a BOM (offsets of symbols are into it). */
  text: string;
  bom: boolean;
  sha256: string;
  snapshot: Snapshot;
}

export async function readCode(target: ResolvedPath): Promise<CodeFile> {
  const snap = await readSnapshot(target, { maxBytes: MAX_CODE_BYTES });
  if (!snap) throw new ToolError(`No such file: ${printable(target.requested)}`, "not_found");
  const text = decodeText(snap.data, encodingOf(snap.data), target.requested);
  const bom = text.startsWith("\uFEFF");
  return {
    target,
    language: languageOf(target.real),
    text: bom ? text.slice(1) : text,
    bom,
    sha256: snap.sha256,
    snapshot: snap,
  };
}

export interface FileSymbols {
  symbols: SymbolNode[];
  /** Syntax errors in the file (ERROR/MISSING nodes): symbols near them may be missing. */
  errors: number;
}

/** The file's symbols; `undefined` when mcpfs has no grammar for its language. */
export async function symbolsOf(file: CodeFile, signal?: AbortSignal): Promise<FileSymbols | undefined> {
  if (file.language === undefined) return undefined;
  if (file.language === "markdown") return { symbols: markdownSymbols(file.text), errors: 0 };
  return parseSymbols(file.language, file.text, file.sha256, signal);
}

/** Identifier occurrences (all, or of one name); `undefined` without a grammar (Markdown has none). */
export async function occurrencesOf(
  file: CodeFile,
  name?: string,
  signal?: AbortSignal,
): Promise<Map<string, Occurrence[]> | undefined> {
  if (file.language === undefined || file.language === "markdown") return undefined;
  return new Map(await parseOccurrences(file.language, file.text, file.sha256, name, signal));
}

/** What a file without a grammar is told. */
export function noGrammarNote(requested: string): string {
  return (
    `No code grammar for ${printable(requested)}: outlines cover TypeScript, TSX, JavaScript, Python, Go, ` +
    "Rust, Java, C#, C, C++, Ruby, PHP and Markdown. Read it with a line range instead."
  );
}

/** The names a file uses without defining them there, with counts; `undefined` without a grammar. */
export async function usesOf(file: CodeFile, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
  if (file.language === undefined || file.language === "markdown") return undefined;
  return new Map(await parseUses(file.language, file.text, file.sha256, signal));
}
