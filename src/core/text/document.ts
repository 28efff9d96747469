/**
 * A whole text file for editing: its LF body (what the edit engine, diffs and patches work on), the
 * terminator each of the body's LFs stands for, the BOM, and the format an edit reply reports. The body
 * with `eols` is the compact form of the file's `Line`s (lines.ts): `docLines` gives them, and `printDoc`
 * writes every line back with its own terminator, so a change to some lines never rewrites the others'.
 */
import { type Eol, isCrlfAt, type Line, lineEnd } from "./lines.js";

const BOM = "\uFEFF";

export interface TextDoc {
  /** The text without its BOM, every CRLF as LF. */
  body: string;
  /** The terminator of the body's n-th LF. */
  eols: Eol[];
  /** The file starts with a UTF-8 byte-order mark (U+FEFF). */
  bom: boolean;
  /** The dominant terminator, for lines an edit adds (LF when the file has none; ties go to LF). */
  eol: Eol;
  /** Both CRLF and lone LF occur (an edit keeps each line's own ending). */
  mixed: boolean;
}

/** What an edit reply reports of a file's format. */
export type TextFormat = Pick<TextDoc, "eol" | "bom" | "mixed">;

export function parseDoc(text: string): TextDoc {
  const bom = text.startsWith(BOM);
  const raw = bom ? text.slice(1) : text;
  const eols: Eol[] = [];
  let crlf = 0;
  for (let nl = lineEnd(raw, 0); nl !== -1; nl = lineEnd(raw, nl + 1)) {
    const isCrlf = isCrlfAt(raw, nl);
    if (isCrlf) crlf++;
    eols.push(isCrlf ? "\r\n" : "\n");
  }
  const lf = eols.length - crlf;
  const body = crlf > 0 ? raw.replace(/\r\n/g, "\n") : raw;
  return { body, eols, bom, eol: crlf > lf ? "\r\n" : "\n", mixed: crlf > 0 && lf > 0 };
}

/** The text of `doc` with `body` (an edited body) and its terminators `eols`. */
export function printDoc(doc: TextDoc, body = doc.body, eols = doc.eols): string {
  const head = doc.bom ? BOM : "";
  // An LF-only file (the common case) is its body.
  if (doc.eol === "\n" && !eols.includes("\r\n")) return head + body;
  const out: string[] = [head];
  let start = 0;
  let k = 0;
  for (let nl = lineEnd(body, 0); nl !== -1; nl = lineEnd(body, start)) {
    out.push(body.slice(start, nl), eols[k++] ?? doc.eol);
    start = nl + 1;
  }
  out.push(body.slice(start));
  return out.join("");
}

/** The lines of `doc`, each with its own terminator (a final terminator does not start an empty line). */
export function docLines(doc: TextDoc): Line[] {
  const out: Line[] = [];
  const { body } = doc;
  let start = 0;
  let k = 0;
  for (let nl = lineEnd(body, 0); nl !== -1; nl = lineEnd(body, start)) {
    out.push({ text: body.slice(start, nl), eol: doc.eols[k++]! });
    start = nl + 1;
  }
  if (start < body.length) out.push({ text: body.slice(start), eol: "" });
  return out;
}

/** The text of `lines` (with the BOM when `bom`). */
export function printLines(lines: readonly Line[], bom: boolean): string {
  let out = bom ? BOM : "";
  for (const l of lines) out += l.text + l.eol;
  return out;
}

/**
 * The terminators after replacing `spans` (sorted, not overlapping) of the LF text `text` whose LFs end as
 * `eols`: LFs outside the spans keep theirs; the n-th LF of a replacement takes the terminator of the n-th
 * LF it replaces, and any further one the file's dominant terminator.
 */
export function spliceEndings(
  text: string,
  eols: readonly Eol[],
  spans: readonly { start: number; end: number; replacement: string }[],
  dominant: Eol,
): Eol[] {
  const breaks = (s: string, from: number, to: number): number => {
    let n = 0;
    for (let i = lineEnd(s, from, to); i !== -1; i = lineEnd(s, i + 1, to)) n++;
    return n;
  };
  const out: Eol[] = [];
  let k = 0;
  let pos = 0;
  for (const s of spans) {
    for (let n = breaks(text, pos, s.start); n > 0; n--) out.push(eols[k++]!);
    const replaced = k;
    k += breaks(text, s.start, s.end);
    const added = breaks(s.replacement, 0, s.replacement.length);
    for (let m = 0; m < added; m++) out.push(replaced + m < k ? eols[replaced + m]! : dominant);
    pos = s.end;
  }
  while (k < eols.length) out.push(eols[k++]!);
  return out;
}
