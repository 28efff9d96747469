/**
 * An outline for a file with no grammar (YAML, TOML, INI, plain text…): a line opens a block when the next
 * non-blank line is indented deeper; a `[section]` line opens one that runs to the next section. Comment
 * lines (`#`, `;`, `//`) and blank lines neither open nor close a block. One pass, no grammar to load.
 */

import { splitLines } from "../text/lines.js";
import type { SymbolNode } from "./extract.js";

const SECTION = /^\s*\[\[?[^\]]+\]\]?\s*(?:[#;].*)?$/;
const COMMENT = /^\s*(?:#|;|\/\/)/;
const NAME_MAX = 80;

/** Columns of leading whitespace (a tab counts 4); a section line ranks above any indentation. */
function levelOf(line: string): number {
  if (SECTION.test(line)) return -1;
  let n = 0;
  for (const c of line) {
    if (c === " ") n++;
    else if (c === "\t") n += 4;
    else break;
  }
  return n;
}

export function indentSymbols(text: string): SymbolNode[] {
  const lines = splitLines(text);
  const rows: { line: number; level: number; offset: number }[] = [];
  let offset = 0;
  lines.forEach((l, i) => {
    if (l.trim() !== "" && !COMMENT.test(l)) rows.push({ line: i + 1, level: levelOf(l), offset });
    offset += l.length + 1;
  });
  const top: SymbolNode[] = [];
  const open: { level: number; sym: SymbolNode }[] = [];
  const closeTo = (level: number, lastLine: number) => {
    while (open.length > 0 && open[open.length - 1]!.level >= level) {
      const { sym } = open.pop()!;
      sym.endLine = Math.max(sym.startLine, lastLine);
    }
  };
  rows.forEach((r, k) => {
    closeTo(r.level, k > 0 ? rows[k - 1]!.line : r.line);
    const next = rows[k + 1];
    if (!next || next.level <= r.level) return;
    const name = lines[r.line - 1]!.trim();
    const shown = name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name;
    const sym: SymbolNode = {
      name: shown,
      kind: "heading",
      startLine: r.line,
      endLine: r.line,
      start: r.offset,
      end: r.offset,
      signature: shown,
      children: [],
    };
    (open.length > 0 ? open[open.length - 1]!.sym.children : top).push(sym);
    open.push({ level: r.level, sym });
  });
  closeTo(Number.NEGATIVE_INFINITY, rows.length > 0 ? rows[rows.length - 1]!.line : 0);
  return top;
}
