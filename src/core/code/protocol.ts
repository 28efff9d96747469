/** The messages between the main thread (`parser-pool.ts`) and the parser worker (`worker.ts`). */
import type { Occurrence, SymbolNode } from "./extract.js";
import type { GrammarId, Reading } from "./languages.js";

/** The worker's data at its start: where the tree-sitter runtime's WebAssembly and each grammar's are. */
export interface ParserFiles {
  runtime: string;
  grammars: Record<GrammarId, string>;
}

export interface ParseRequest {
  id: number;
  /**
   * `uses`: the names the file uses but does not define there, with counts; `map`: symbols and uses at once
   * (what the repository map needs of a file: its text crosses to the worker once); `warm`: load the
   * runtime and the grammar, nothing parsed (a tree-wide tool sends it while it still lists the files).
   */
  op: "symbols" | "occurrences" | "uses" | "map" | "errors" | "warm";
  /** How to parse `text`: its grammar, or the grammars to try (languages.ts). */
  reading: Reading;
  text: string;
  /** Cache key: the content's sha256 (`errors` is never cached). */
  key: string;
  /** `occurrences`: only this name. */
  name?: string;
}

export interface SymbolsResult {
  symbols: SymbolNode[];
  /** ERROR and MISSING nodes in the tree. */
  errors: number;
  /** The line of the first of them (0: none). */
  firstError: number;
}

export type OccurrencesResult = [string, Occurrence[]][];

export type UsesResult = [string, number][];

export interface MapResult {
  symbols: SymbolsResult;
  uses: UsesResult;
}

/**
 * An answer travels as JSON text: one string copy across the thread boundary (cloning the object graph of a
 * large outline cost more than the parse), and the worker keeps it as that text (its size is its weight).
 * The worker posts answers in batches: an array of these per message.
 */
export type ParseResponse =
  | { id: number; ok: true; json: string }
  /** A refusal as data: the parser's own account of what failed (the main thread words it). */
  | { id: number; ok: false; cause: string };
