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
