/**
 * Text as lines that remember their own line ending, so a change to some lines never rewrites the endings
 * (or the BOM) of the others: CRLF, LF and mixed files come back exactly as they were outside the change.
 */
export interface Line {
  text: string;
  /** "\n", "\r\n" or "" (only the last line can lack one). */
  eol: string;
}

export interface LineText {
  lines: Line[];
  bom: boolean;
  /** The ending new lines get: the file's most common one (LF for a file without line breaks). */
  eol: string;
}

const BOM = "\uFEFF";

export function toLines(text: string): LineText {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: Line[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  for (;;) {
    const nl = body.indexOf("\n", start);
    if (nl === -1) break;
    const isCrlf = nl > start && body.charCodeAt(nl - 1) === 13;
    if (isCrlf) crlf++;
    else lf++;
    lines.push({ text: body.slice(start, isCrlf ? nl - 1 : nl), eol: isCrlf ? "\r\n" : "\n" });
    start = nl + 1;
  }
  if (start < body.length) lines.push({ text: body.slice(start), eol: "" });
  return { lines, bom, eol: crlf > lf ? "\r\n" : "\n" };
}

export function fromLines(t: LineText): string {
  let out = t.bom ? BOM : "";
  for (const l of t.lines) out += l.text + l.eol;
  return out;
}
