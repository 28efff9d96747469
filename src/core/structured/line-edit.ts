/**
 * Line-range edits: each replaces lines startLine..endLine (1-based, inclusive; endLine = startLine - 1
 * inserts before startLine) with newText. Applied bottom-up so every range refers to the text as read;
 * overlapping ranges are refused. Lines keep their own endings (text/lines.ts): the n-th new line takes
 * the ending of the n-th line it replaces, the last one the ending of the last replaced line.
 */
import { ToolError } from "../errors.js";
import { docLines, parseDoc, printLines } from "../text/document.js";
import { type Line, linesOf, toLf } from "../text/lines.js";

export interface LineEdit {
  startLine: number;
  endLine: number;
  newText: string;
}

function check(edits: readonly LineEdit[], total: number): LineEdit[] {
  const sorted = [...edits].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
  for (const e of sorted)
    if (e.startLine < 1 || e.startLine > total + 1 || e.endLine < e.startLine - 1 || e.endLine > total)
      throw new ToolError("invalid", {
        reason: "line_range_outside",
        actual: `${e.startLine}-${e.endLine}`,
        limit: total,
      });
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1]!, sorted[i]!];
    if (b.startLine <= a.endLine || b.startLine === a.startLine)
      throw new ToolError("invalid", {
        reason: "line_ranges_overlap",
        items: [`${a.startLine}-${a.endLine}`, `${b.startLine}-${b.endLine}`],
      });
  }
  return sorted.reverse();
}

/** The text (without BOM) after the edits. */
export function applyLineEdits(text: string, edits: readonly LineEdit[]): string {
  const doc = parseDoc(text);
  const lines = docLines(doc);
  const { eol } = doc;
  for (const e of check(edits, lines.length)) {
    const lf = toLf(e.newText);
    const pieces = linesOf(lf).map((l) => l.text);
    const old = lines.slice(e.startLine - 1, e.endLine);
    const atEnd = e.startLine > lines.length;
    const added: Line[] = pieces.map((text, k) => {
      if (k < pieces.length - 1) return { text, eol: old[k]?.eol || eol };
      if (old.length > 0) return { text, eol: old.at(-1)!.eol };
      return { text, eol: atEnd && lines.at(-1)?.eol === "" ? "" : eol };
    });
    // A line added after a last line that had no ending: that line gets one, the new last line has none.
    if (atEnd && added.length > 0 && lines.at(-1)?.eol === "") lines.at(-1)!.eol = eol;
    lines.splice(e.startLine - 1, old.length, ...added);
  }
  return printLines(lines, false);
}
