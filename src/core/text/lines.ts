/**
 * The one line model of mcpfs (as ripgrep's line iterator): a line ends at LF, and only at LF (as git,
 * ripgrep and `wc -l` count); its terminator stays with it (`Line.eol`: "\n", "\r\n", or "" for a final
 * line without one). A lone CR is content. A CRLF line's CR belongs to its terminator: it is not shown as
 * part of the line, and a rewrite puts it back. `scripts/check-line-splits.mjs` (npm run lint) keeps every
 * other module from splitting text on "\n" itself.
 */

export const LF = 0x0a;
const CR = 0x0d;

export type Eol = "\n" | "\r\n";

export interface Line {
  /** The line as shown: without its terminator. */
  text: string;
  /** "\n", "\r\n" or "" (only the last line can lack one). */
  eol: "" | Eol;
}

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

/** The lines of decoded text; a final terminator does not start an empty line. */
export function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (let nl = lineEnd(text, 0); nl !== -1; nl = lineEnd(text, start)) {
    const crlf = isCrlfAt(text, nl, start);
    out.push({ text: text.slice(start, crlf ? nl - 1 : nl), eol: crlf ? "\r\n" : "\n" });
    start = nl + 1;
  }
  if (start < text.length) out.push({ text: text.slice(start), eol: "" });
  return out;
}

/** The lines of text as shown (`linesOf` without the terminators). */
export function splitLines(text: string): string[] {
  return linesOf(text).map((l) => l.text);
}

/**
 * The pieces of text between its LFs, CRs kept, with an empty last piece after a final LF: for program
 * output and messages (git, GitHub, diffs), not files. The one sanctioned `split` on LF outside this room.
 */
export function lfPieces(text: string): string[] {
  return text.split("\n");
}

/** How many lines `linesOf(text)` returns, without making them. */
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

/** CRLF → LF (a lone CR is content, not a line break). */
export function toLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}
