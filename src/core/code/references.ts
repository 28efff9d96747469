/** Identifier occurrences across files, grouped per file, each line tagged with its role. */

import { escapeName } from "../echo.js";
import { lfPieces } from "../text/lines.js";
import type { RefTag } from "./extract.js";
import { type CodeScope, filesWithWord, readInScope } from "./scope.js";
import { occurrencesOf } from "./source.js";

export interface ReferenceLine {
  line: number;
  tags: RefTag[];
  text: string;
  /** Occurrences on the line. */
  count: number;
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
  /** Occurrences seen: `total`, and when capped, the rest of the file it stopped in. */
  seen: number;
  /** Whether `seen` counts them all (it stopped in the last file that could hold one, or never stopped). */
  seenAll: boolean;
}

const LINE_TEXT_MAX = 160;

export async function findReferences(
  scope: CodeScope,
  name: string,
  maxResults: number,
): Promise<ReferencesResult> {
  const out: ReferencesResult = { files: [], total: 0, capped: false, seen: 0, seenAll: true };
  const candidates = await filesWithWord(scope, name);
  for (const [i, rel] of candidates.entries()) {
    const file = await readInScope(scope, rel);
    const occ = file ? (await occurrencesOf(file, name, scope.signal))?.get(name) : undefined;
    if (!file || !occ || occ.length === 0) continue;
    const lines = lfPieces(file.text);
    const byLine = new Map<number, ReferenceLine>();
    for (const [j, o] of occ.entries()) {
      if (out.total >= maxResults) {
        out.capped = true;
        out.seen = out.total + occ.length - j;
        out.seenAll = i === candidates.length - 1;
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
          count: 0,
        };
        byLine.set(o.line, row);
      }
      row.count++;
      if (!row.tags.includes(o.tag)) row.tags.push(o.tag);
    }
    if (byLine.size > 0) out.files.push({ path: rel, lines: [...byLine.values()] });
    if (out.capped) break;
  }
  if (!out.capped) out.seen = out.total;
  return out;
}

/** The reply's first line: what the matches are, and how to read a line without a tag. */
const REFERENCES_HEADER =
  "[syntactic matches, not type-resolved; an untagged line has the tag of the line above]";

/**
 * The reply's rows: the header, then per file its path and a row per line, `12 call: text` (grep's
 * `12: text` with the line's tags). Left out, as a model learns nothing from them: the tags of a line that
 * has the tags of the line above in the same file (a run of calls is tagged once; a file's first row always
 * has its tags, so each file reads alone), and the text of a line that is only an import (`3 import`: the
 * text repeats the name and a module path; structuredContent keeps it). For ToolError in src/, where most
 * hits are one-line calls and 103 of 490 are imports, that is 9,573 tokens instead of 10,902.
 */
export function referenceRows(files: readonly FileReferences[]): string[] {
  const rows = [REFERENCES_HEADER];
  for (const f of files) {
    rows.push(escapeName(f.path));
    let above = "";
    for (const l of f.lines) {
      const tags = l.tags.join(",");
      if (tags === "import") rows.push(`${l.line} import`);
      else rows.push(tags === above ? `${l.line}: ${l.text}` : `${l.line} ${tags}: ${l.text}`);
      above = tags;
    }
  }
  return rows;
}

/** The occurrences in the first `kept` rows of `referenceRows(files)` (what a cut reply shows). */
export function occurrencesInRows(files: readonly FileReferences[], kept: number): number {
  let row = 1; // the header
  let n = 0;
  for (const f of files) {
    row++; // the path
    for (const l of f.lines) {
      if (row++ >= kept) return n;
      n += l.count;
    }
  }
  return n;
}
