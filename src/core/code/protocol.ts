/** The messages between the main thread (`parser-pool.ts`) and the parser worker (`worker.ts`). */
import type { Occurrence, SymbolNode } from "./extract.js";
import type { GrammarId, Language } from "./languages.js";

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
   * runtime and the grammar, nothing parsed (a tree-wide tool sends it while it still lists the files);
   * `lead`: where the definition at `at` starts with its doc comment and attributes (extract.ts).
   */
  op: "symbols" | "occurrences" | "uses" | "map" | "errors" | "warm" | "lead";
  /** How to parse `text`: its grammar, the grammars to try (languages.ts), or Markdown (only `symbols`). */
  reading: Language;
  text: string;
  /** Cache key: the content's sha256 (`errors` is never cached). */
  key: string;
  /** `occurrences`: only this name. */
  name?: string;
  /** `lead`: the definition's start offset. */
  at?: number;
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
