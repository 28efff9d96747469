/**
 * The one text model of mcpfs: where a line ends, how lines are counted, and text as lines that remember
 * their own ending, so a change to some lines never rewrites the endings (or the BOM) of the others.
 *
 * Policy: a line ends at LF, and only at LF (as git, ripgrep and `wc -l` count). A lone CR is content. A
 * CRLF line's CR belongs to its line break: it is not shown as part of the line, and a rewrite puts it
 * back. A final line without a break is a line. Every read (head, tail, ranges, numbering, totals), grep,
 * check_file_size, edit and patch counts lines through `lineEnd` and `LineCounter` below.
 */

export const LF = 0x0a;
const CR = 0x0d;
const BOM = "\uFEFF";

export type Eol = "\n" | "\r\n";

/** Where the line that starts at or after `from` ends: the index of its LF before `to`, or -1. */
export function lineEnd(s: string | Uint8Array, from: number, to = s.length): number {
  const i = typeof s === "string" ? s.indexOf("\n", from) : s.indexOf(LF, from);
  return i === -1 || i >= to ? -1 : i;
}

/** True when the LF at `lf` ends a CRLF line (its CR is not part of the line's text). */
export function isCrlfAt(s: string | Uint8Array, lf: number, lineStart = 0): boolean {
  if (lf <= lineStart) return false;
  return typeof s === "string" ? s.charCodeAt(lf - 1) === CR : s[lf - 1] === CR;
}

/** The lines of text as shown (no breaks, no CRLF's CR); a final line break does not start an empty line. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let nl = lineEnd(text, 0); nl !== -1; nl = lineEnd(text, start)) {
    out.push(text.slice(start, isCrlfAt(text, nl, start) ? nl - 1 : nl));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** How many lines `splitLines(text)` returns, without making them. */
export function countLines(text: string): number {
  let n = 0;
  let start = 0;
  for (let nl = lineEnd(text, 0); nl !== -1; nl = lineEnd(text, start)) {
    n++;
    start = nl + 1;
  }
  return start < text.length ? n + 1 : n;
}

/** Counts lines chunk by chunk (each LF ends one; a final line without a break counts too). */
export class LineCounter {
  #breaks = 0;
  #last = -1;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    for (let i = lineEnd(chunk, 0); i !== -1; i = lineEnd(chunk, i + 1)) this.#breaks++;
    this.#last = chunk[chunk.length - 1]!;
  }

  get lines(): number {
    return this.#breaks + (this.#last !== -1 && this.#last !== LF ? 1 : 0);
  }
}

export interface Line {
  text: string;
  /** "\n", "\r\n" or "" (only the last line can lack one). */
  eol: "" | Eol;
}

export interface LineText {
  lines: Line[];
  bom: boolean;
  /** The ending new lines get: the file's most common one (LF for a file without line breaks). */
  eol: Eol;
}

export function toLines(text: string): LineText {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const lines: Line[] = [];
  let crlf = 0;
  let start = 0;
  for (let nl = lineEnd(body, 0); nl !== -1; nl = lineEnd(body, start)) {
    const isCrlf = isCrlfAt(body, nl, start);
    if (isCrlf) crlf++;
    lines.push({ text: body.slice(start, isCrlf ? nl - 1 : nl), eol: isCrlf ? "\r\n" : "\n" });
    start = nl + 1;
  }
  if (start < body.length) lines.push({ text: body.slice(start), eol: "" });
  const lf = lines.length - crlf - (start < body.length ? 1 : 0);
  return { lines, bom, eol: crlf > lf ? "\r\n" : "\n" };
}

export function fromLines(t: LineText): string {
  let out = t.bom ? BOM : "";
  for (const l of t.lines) out += l.text + l.eol;
  return out;
}

/**
 * Text for the edit engine: an LF body without the BOM, and the ending each of its LFs stands for, so that
 * `joinEndings` writes every line back with its own ending.
 */
export interface EndedText {
  body: string;
  /** The ending of the body's n-th LF. */
  eols: Eol[];
  bom: boolean;
  /** The file's dominant ending, for lines an edit adds. */
  eol: Eol;
}

export function splitEndings(text: string): EndedText {
  const bom = text.startsWith(BOM);
  const raw = bom ? text.slice(1) : text;
  const eols: Eol[] = [];
  let crlf = 0;
  for (let nl = lineEnd(raw, 0); nl !== -1; nl = lineEnd(raw, nl + 1)) {
    if (isCrlfAt(raw, nl)) crlf++;
    eols.push(isCrlfAt(raw, nl) ? "\r\n" : "\n");
  }
  const body = crlf > 0 ? raw.replace(/\r\n/g, "\n") : raw;
  return { body, eols, bom, eol: crlf > eols.length - crlf ? "\r\n" : "\n" };
}

export function joinEndings(t: EndedText): string {
  const head = t.bom ? BOM : "";
  // An LF-only file (the common case) is its body.
  if (t.eol === "\n" && !t.eols.includes("\r\n")) return head + t.body;
  const out: string[] = [head];
  let start = 0;
  let k = 0;
  for (let nl = lineEnd(t.body, 0); nl !== -1; nl = lineEnd(t.body, start)) {
    out.push(t.body.slice(start, nl), t.eols[k++] ?? t.eol);
    start = nl + 1;
  }
  out.push(t.body.slice(start));
  return out.join("");
}

/**
 * The endings after replacing `spans` (sorted, not overlapping) of the LF text `text` whose LFs end as
 * `eols`: LFs outside the spans keep theirs; the n-th LF of a replacement takes the ending of the n-th LF
 * it replaces, and any further one the file's dominant ending.
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
