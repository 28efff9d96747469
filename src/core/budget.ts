/** Output budgets: every reply is cut to a byte bound on whole UTF-8 characters. */

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes` (never splits a character). */
export function cutToBytes(text: string, maxBytes: number): { text: string; truncated: boolean } {
  if (maxBytes <= 0) return { text: "", truncated: text.length > 0 };
  // Fast path: even at 3 bytes per UTF-16 unit it fits.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes) return { text, truncated: false };
  const buf = Buffer.from(text, "utf8").subarray(0, maxBytes);
  let end = buf.length;
  // Step back over a partial multi-byte sequence at the cut.
  let i = end - 1;
  while (i >= 0 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i >= 0) {
    const lead = buf[i]!;
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - i < need) end = i;
  }
  return { text: buf.subarray(0, end).toString("utf8"), truncated: true };
}

/** Like `cutToBytes`, but cuts at the last line break inside the bound when there is one. */
export function cutToLines(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const r = cutToBytes(text, maxBytes);
  if (!r.truncated) return r;
  const nl = r.text.lastIndexOf("\n");
  return { text: nl >= 0 ? r.text.slice(0, nl + 1) : r.text, truncated: true };
}

/** The text of `texts` with the most UTF-8 bytes (a note naming one of them is sized with it). */
export function widest(texts: readonly string[]): string {
  return texts.reduce((w, t) => (byteLength(t) > byteLength(w) ? t : w), "");
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The widest number a note can show: a note whose numbers are not known yet (how many lines were kept) is
 * sized with this in their place, so the room held for it is never too small.
 */
export const ANY_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * The room of one reply, in UTF-8 bytes of its text blocks: THE place where reply sizes are counted. The
 * runner makes one per call (`ctx.budget`); a formatter asks it for room before it adds text and holds room
 * for its closing note, sized by the note itself. The runner's `finalCut` is the backstop.
 *
 * @example
 * const b = ctx.budget;
 * const close = b.reserve(moreNote(ANY_COUNT));   // room for the note at its widest
 * const kept = b.takeLines(lines);                // lines, "\n"-joined, while they fit
 * let text = lines.slice(0, kept).join("\n");
 * if (kept < lines.length) text += close(moreNote(kept));
 */
export class ReplyBudget {
  private used = 0;
  private held = 0;

  /** `limit`: the reply's bound in bytes (`--max-output-bytes`). */
  constructor(readonly limit: number) {}

  /** Bytes still free for content: the limit less what was taken and the room held for a note. */
  get remaining(): number {
    return Math.max(0, this.limit - this.used - this.held);
  }

  /** Whether `text` fits in what is left. */
  fits(text: string): boolean {
    const left = this.remaining;
    return text.length * 3 <= left || byteLength(text) <= left;
  }

  /** Takes room for `text` when it fits whole; takes nothing and answers false when it does not. */
  take(text: string): boolean {
    const bytes = byteLength(text);
    if (bytes > this.remaining) return false;
    this.used += bytes;
    return true;
  }

  /**
   * Takes `lines` from the start, as they would be joined with "\n", while they fit; returns how many.
   * Each line is counted with its separator.
   */
  takeLines(lines: readonly string[]): number {
    for (let i = 0; i < lines.length; i++) {
      const bytes = byteLength(lines[i]!) + 1;
      if (bytes > this.remaining) return i;
      this.used += bytes;
    }
    return lines.length;
  }

  /**
   * Takes `lines` while they fit, like `takeLines`; when not all of them do (or `noteAnyway`: more exist
   * than the lines given), room for `note(kept)` is held first, sized with `ANY_COUNT`, and the note comes
   * back to end the reply with.
   */
  fitLines(
    lines: readonly string[],
    note: (kept: number) => string,
    noteAnyway = false,
  ): { kept: number; note?: string } {
    const start = this.used;
    if (!noteAnyway && this.takeLines(lines) === lines.length) return { kept: lines.length };
    this.used = start;
    const close = this.reserve(note(ANY_COUNT));
    const kept = this.takeLines(lines);
    return { kept, note: close(note(kept)) };
  }

  /**
   * Takes `text` whole when it fits, else the longest prefix that does — never mid-character, and with
   * `onLines` at the last line break inside the room when there is one.
   */
  cut(text: string, onLines = false): { text: string; truncated: boolean } {
    const r = (onLines ? cutToLines : cutToBytes)(text, this.remaining);
    this.used += byteLength(r.text);
    return r;
  }

  /**
   * `text` whole when it fits; else as much of it as fits ahead of `note` (at a line break with `onLines`),
   * then the note: the common shape of a reply that is one block of text.
   */
  fit(text: string, note: string, onLines = false): { text: string; truncated: boolean } {
    if (this.take(text)) return { text, truncated: false };
    const close = this.reserve(note);
    const body = this.cut(text, onLines).text;
    return { text: body + close(note), truncated: true };
  }

  /** The size of `text` as the budget counts it (UTF-8 bytes), for a note that reports it. */
  sizeOf(text: string): number {
    return byteLength(text);
  }

  /** How many more pieces of at least `bytes` bytes each could still fit (a bound for a search). */
  atMost(bytes: number): number {
    return Math.floor(this.remaining / Math.max(1, bytes));
  }

  /**
   * Holds room for a closing note: pass it at its widest (numbers not yet known as `ANY_COUNT`). Returns
   * the closer that releases this room and takes the real note. Text known now is simply taken.
   */
  reserve(widest: string): (note: string) => string {
    const bytes = byteLength(widest);
    this.held += bytes;
    let open = true;
    return (note) => {
      if (open) this.held -= bytes;
      open = false;
      return this.cut(note).text;
    };
  }
}

/** What the last line of a reply the final cut had to shorten says. */
const FINAL_CUT_NOTE = (maxBytes: number) =>
  `\n[mcpfs: reply cut at the ${maxBytes}-byte budget; ask for less to see the rest: a line range, a sub-path, a narrower pattern or fewer results.]`;

/**
 * The last guard of every reply: its text blocks together hold at most `maxBytes`, whatever a formatter
 * did. Formatters fit their own replies with `ReplyBudget` and say how to go on; this cut should never be
 * needed, and when it is, it ends on a line boundary (when the room holds one) with a line that says how to go on.
 */
export function finalCut(texts: readonly string[], maxBytes: number): string[] | undefined {
  let chars = 0;
  for (const t of texts) chars += t.length;
  // At most 3 bytes per UTF-16 unit: a reply that short fits without counting its bytes.
  if (chars * 3 <= maxBytes) return undefined;
  let bytes = 0;
  for (const t of texts) bytes += byteLength(t);
  if (bytes <= maxBytes) return undefined;
  const note = FINAL_CUT_NOTE(maxBytes);
  let left = Math.max(0, maxBytes - byteLength(note));
  const out = texts.map((t) => {
    const cut = cutToLines(t, left).text;
    left -= byteLength(cut);
    return cut;
  });
  out[out.length - 1] += note;
  return out;
}
