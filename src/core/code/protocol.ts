/** The messages between the main thread (`parser-pool.ts`) and the parser worker (`worker.ts`). */
import type { Occurrence, SymbolNode } from "./extract.js";
import type { GrammarId } from "./languages.js";

export interface ParseRequest {
  id: number;
  /** `uses`: the names the file uses but does not define there, with counts. */
  op: "symbols" | "occurrences" | "uses" | "errors";
  grammar: GrammarId;
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
}

export type OccurrencesResult = [string, Occurrence[]][];

export type ParseResponse =
  | { id: number; ok: true; value: SymbolsResult | OccurrencesResult | number }
  | { id: number; ok: false; message: string };
