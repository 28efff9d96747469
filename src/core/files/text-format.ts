/** The line-ending style and BOM of a text file, as edit replies report them (see text-lines.ts). */
import { type Eol, toLines } from "./text-lines.js";

export interface TextFormat {
  /** The dominant line ending (LF when the file has none). */
  eol: Eol;
  /** The file starts with a UTF-8 byte-order mark (U+FEFF). */
  bom: boolean;
  /** Both CRLF and lone LF occur (an edit keeps each line's own ending). */
  mixed: boolean;
}

/** Detects the EOL style (by majority, ties go to LF) and BOM of decoded text. */
export function detectFormat(text: string): TextFormat {
  const t = toLines(text);
  let crlf = 0;
  let lf = 0;
  for (const l of t.lines) {
    if (l.eol === "\r\n") crlf++;
    else if (l.eol === "\n") lf++;
  }
  return { eol: t.eol, bom: t.bom, mixed: crlf > 0 && lf > 0 };
}

/** CRLF → LF (a lone CR is content, not a line break). */
export function toLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}
