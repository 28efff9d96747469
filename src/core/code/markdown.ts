/** Markdown outlines by its ATX headings (`#`…`######`), outside fenced code; a heading ends before the next one of its level or higher. */

import { lfPieces } from "../text/lines.js";
import type { SymbolNode } from "./extract.js";

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function markdownSymbols(text: string): SymbolNode[] {
  const lines = lfPieces(text);
  const top: SymbolNode[] = [];
  const open: { level: number; sym: SymbolNode }[] = [];
  let fence: string | undefined;
  let offset = 0;
  const close = (level: number, lastLine: number, end: number) => {
    while (open.length > 0 && open[open.length - 1]!.level >= level) {
      const { sym } = open.pop()!;
      sym.endLine = Math.max(sym.startLine, lastLine);
      sym.end = end;
    }
  };
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
    } else if (fence === undefined) {
      const h = HEADING.exec(line.replace(/\r$/, ""));
      if (h) {
        const level = h[1]!.length;
        close(level, i, offset);
        const title = h[2]!.trim();
        const sym: SymbolNode = {
          name: title,
          kind: "heading",
          startLine: i + 1,
          endLine: i + 1,
          start: offset,
          end: offset,
          signature: `${h[1]} ${title}`,
          children: [],
        };
        (open.length > 0 ? open[open.length - 1]!.sym.children : top).push(sym);
        open.push({ level, sym });
      }
    }
    offset += line.length + 1;
  });
  const lastLine = text.endsWith("\n") ? lines.length - 1 : lines.length;
  close(0, lastLine, text.length);
  return top;
}
