/** Identifier occurrences across files, grouped per file, each line tagged with its role. */

import { lfPieces } from "../text/lines.js";
import type { RefTag } from "./extract.js";
import { type CodeScope, filesWithWord, readInScope } from "./scope.js";
import { occurrencesOf } from "./source.js";

export interface ReferenceLine {
  line: number;
  tags: RefTag[];
  text: string;
}

export interface FileReferences {
  path: string;
  lines: ReferenceLine[];
}

export interface ReferencesResult {
  files: FileReferences[];
  /** Occurrences found (lines may hold several). */
  total: number;
  /** Stopped at maxResults. */
  capped: boolean;
}

const LINE_TEXT_MAX = 160;

export async function findReferences(
  scope: CodeScope,
  name: string,
  maxResults: number,
): Promise<ReferencesResult> {
  const out: ReferencesResult = { files: [], total: 0, capped: false };
  for (const rel of await filesWithWord(scope, name)) {
    const file = await readInScope(scope, rel);
    const occ = file ? (await occurrencesOf(file, name, scope.signal))?.get(name) : undefined;
    if (!file || !occ || occ.length === 0) continue;
    const lines = lfPieces(file.text);
    const byLine = new Map<number, ReferenceLine>();
    for (const o of occ) {
      if (out.total >= maxResults) {
        out.capped = true;
        break;
      }
      out.total++;
      let row = byLine.get(o.line);
      if (!row) {
        const text = (lines[o.line - 1] ?? "").replace(/\r$/, "").trim();
        row = {
          line: o.line,
          tags: [],
          text: text.length > LINE_TEXT_MAX ? `${text.slice(0, LINE_TEXT_MAX - 1)}…` : text,
        };
        byLine.set(o.line, row);
      }
      if (!row.tags.includes(o.tag)) row.tags.push(o.tag);
    }
    if (byLine.size > 0) out.files.push({ path: rel, lines: [...byLine.values()] });
    if (out.capped) break;
  }
  return out;
}
