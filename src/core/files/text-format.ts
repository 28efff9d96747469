/** The line-ending style and BOM of a text file, as edit replies report them (see text-lines.ts). */
import { type Eol, isCrlfAt, lineEnd } from "./text-lines.js";

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
  let crlf = 0;
  let lf = 0;
  for (let nl = lineEnd(text, 0); nl !== -1; nl = lineEnd(text, nl + 1)) {
    if (isCrlfAt(text, nl)) crlf++;
    else lf++;
  }
  return { eol: crlf > lf ? "\r\n" : "\n", bom: text.startsWith("\uFEFF"), mixed: crlf > 0 && lf > 0 };
}

/** CRLF → LF (a lone CR is content, not a line break). */
export function toLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}
