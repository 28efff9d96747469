/**
 * Line-ending and BOM bookkeeping for text files that are rewritten (edits): the edit engine works on
 * LF text without a BOM; the file gets its own style back when written.
 */

export type Eol = "\n" | "\r\n";

export interface TextFormat {
  /** The dominant line ending (LF when the file has none). */
  eol: Eol;
  /** The file starts with a UTF-8 byte-order mark (U+FEFF). */
  bom: boolean;
  /** Both CRLF and lone LF occur (the file is written back in the dominant style). */
  mixed: boolean;
}

const BOM = "\uFEFF";

/** Detects the EOL style (by majority, ties go to LF) and BOM of decoded text. */
export function detectFormat(text: string): TextFormat {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return { eol: crlf > lf ? "\r\n" : "\n", bom: text.startsWith(BOM), mixed: crlf > 0 && lf > 0 };
}

/** CRLF → LF (a lone CR is content, not a line break). */
export function toLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}

/** Splits decoded file text into its format and an LF-only body without the BOM. */
export function decodeText(text: string): { body: string; format: TextFormat } {
  const format = detectFormat(text);
  const noBom = format.bom ? text.slice(BOM.length) : text;
  return { body: toLf(noBom), format };
}

/** The inverse of `decodeText`: LF body → the file's own line endings, BOM restored. */
export function encodeText(body: string, format: Pick<TextFormat, "eol" | "bom">): string {
  const lf = toLf(body);
  const withEol = format.eol === "\r\n" ? lf.replace(/\n/g, "\r\n") : lf;
  return format.bom ? BOM + withEol : withEol;
}
