/** Definitions by name across a tree: ripgrep picks the files that contain the name, the parser confirms. */

import { lfPieces } from "../text/lines.js";
import type { SymbolKind } from "./languages.js";
import { type CodeScope, filesWithWord, readInScope } from "./scope.js";
import { symbolsOf } from "./source.js";
import { type FoundSymbol, lastName, matchSymbols } from "./symbols.js";

export interface SymbolHit extends FoundSymbol {
  path: string;
  /** The file's text lines, kept when the caller wants bodies. */
  lines?: string[];
}

export interface FindSymbolOptions {
  name: string;
  kind?: SymbolKind;
  exact?: boolean;
  maxResults: number;
  withBody?: boolean;
}

export async function findSymbol(
  scope: CodeScope,
  o: FindSymbolOptions,
): Promise<{ hits: SymbolHit[]; capped: boolean }> {
  const hits: SymbolHit[] = [];
  const word = lastName(o.name);
  for (const rel of await filesWithWord(scope, word, o.exact !== false)) {
    const file = await readInScope(scope, rel);
    const parsed = file ? await symbolsOf(file, scope.signal) : undefined;
    if (!file || !parsed) continue;
    const found = matchSymbols(parsed.symbols, { name: o.name, exact: o.exact, kind: o.kind });
    const lines = o.withBody && found.length > 0 ? lfPieces(file.text) : undefined;
    for (const f of found) {
      if (hits.length >= o.maxResults) return { hits, capped: true };
      hits.push({ ...f, path: rel, ...(lines ? { lines } : {}) });
    }
  }
  return { hits, capped: false };
}
