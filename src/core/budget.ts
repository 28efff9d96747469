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
  return { text: nl > 0 ? r.text.slice(0, nl + 1) : r.text, truncated: true };
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** What the last line of a reply the final cut had to shorten says. */
export const FINAL_CUT_NOTE = (maxBytes: number) =>
  `\n[mcpfs: reply cut at the ${maxBytes}-byte budget; ask for less (a range, a sub-path, a narrower pattern).]`;

/**
 * The last guard of every reply: its text blocks together hold at most `maxBytes`, whatever a formatter
 * did. Formatters fit their own replies and say how to go on; this cut should never be needed, and when it
 * is, the reply still ends with a line that says so.
 */
export function finalCut(texts: readonly string[], maxBytes: number): string[] | undefined {
  let total = 0;
  for (const t of texts) total += t.length * 3 <= maxBytes ? t.length : byteLength(t);
  if (total <= maxBytes) return undefined;
  const note = FINAL_CUT_NOTE(maxBytes);
  let left = Math.max(0, maxBytes - byteLength(note));
  const out = texts.map((t) => {
    const cut = cutToBytes(t, left).text;
    left -= byteLength(cut);
    return cut;
  });
  out[out.length - 1] += note;
  return out;
}
