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

export interface FoundSymbols {
  hits: SymbolHit[];
  /** Stopped at maxResults. */
  capped: boolean;
  /** Definitions found: the hits, and when capped, the rest of the file it stopped in. */
  seen: number;
  /** Whether `seen` counts them all (it stopped in the last file that could hold one, or never stopped). */
  seenAll: boolean;
}

export async function findSymbol(scope: CodeScope, o: FindSymbolOptions): Promise<FoundSymbols> {
  const hits: SymbolHit[] = [];
  const word = lastName(o.name);
  const files = await filesWithWord(scope, word, o.exact !== false);
  for (const [i, rel] of files.entries()) {
    const file = await readInScope(scope, rel);
    const parsed = file ? await symbolsOf(file, scope.signal) : undefined;
    if (!file || !parsed) continue;
    const found = matchSymbols(parsed.symbols, { name: o.name, exact: o.exact, kind: o.kind });
    const lines = o.withBody && found.length > 0 ? lfPieces(file.text) : undefined;
    const room = o.maxResults - hits.length;
    for (const f of found.slice(0, room)) hits.push({ ...f, path: rel, ...(lines ? { lines } : {}) });
    if (found.length > room)
      return { hits, capped: true, seen: hits.length + found.length - room, seenAll: i === files.length - 1 };
  }
  return { hits, capped: false, seen: hits.length, seenAll: true };
}
