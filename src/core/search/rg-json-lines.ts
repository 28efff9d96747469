import type { Readable } from "node:stream";

/** A JSON line of ripgrep longer than this is not held: its line text is skipped (see `longMatch`). */
export const MAX_JSON_LINE = 1024 * 1024;
const KEEP = 64 * 1024;
const TEXT_OPEN = Buffer.from('"lines":{"text":"');

/**
 * ripgrep's JSON printer ignores --max-columns, so a match in a 1 GiB one-line file arrives as one 1 GiB
 * JSON line. This splitter hands short lines to `onLine` whole; of a longer one it keeps only the part
 * before the matched line's text and up to 64 KiB after it (line number, offsets, first submatches), so
 * memory stays bounded whatever the line length. `onLong` gets those two parts and the line's size.
 */
export function rgJsonLines(
  input: Readable,
  onLine: (line: string) => void,
  onLong: (head: string, after: string, bytes: number) => void,
): void {
  let parts: Buffer[] = [];
  let held = 0;
  // Long-line state: skipping the text string (0: not long, 1: in text, 2: after text), escape pending.
  let mode = 0;
  let head = "";
  let after: Buffer[] = [];
  let afterLen = 0;
  let bytes = 0;
  let escaped = false;

  const endLine = () => {
    if (mode === 0) onLine(Buffer.concat(parts).toString("utf8"));
    else onLong(head, Buffer.concat(after).toString("utf8"), bytes);
    parts = [];
    held = 0;
    mode = 0;
    after = [];
    afterLen = 0;
    bytes = 0;
    escaped = false;
  };
  const goLong = () => {
    // The text string starts after TEXT_OPEN; what of it is already held is skipped like the rest.
    const all = Buffer.concat(parts);
    const at = all.indexOf(TEXT_OPEN);
    parts = [];
    held = 0;
    if (at === -1 || at > KEEP) {
      mode = 2; // not a line record we can read: keep nothing but count it
      head = "";
      return;
    }
    head = all.subarray(0, at + TEXT_OPEN.length).toString("utf8");
    mode = 1;
    scanText(all.subarray(at + TEXT_OPEN.length));
  };
  /** Skips the rest of the escaped JSON string; what follows it goes to `after` (bounded). */
  const scanText = (b: Buffer) => {
    let i = 0;
    if (mode === 1) {
      // Native scans for '"'; a quote ends the string unless an odd run of backslashes precedes it (the
      // run may continue from the previous piece: `escaped` carries its parity).
      let from = 0;
      for (;;) {
        const q = b.indexOf(0x22, from);
        const end = q === -1 ? b.length : q;
        let k = end;
        while (k > from && b[k - 1] === 0x5c) k--;
        const odd = (end - k + (k === from && escaped ? 1 : 0)) % 2 === 1;
        if (q === -1) {
          escaped = odd;
          i = b.length;
          break;
        }
        escaped = false;
        if (!odd) {
          mode = 2;
          i = q + 1;
          break;
        }
        from = q + 1;
      }
    }
    if (mode === 2 && i < b.length && afterLen < KEEP) {
      const piece = b.subarray(i, i + (KEEP - afterLen));
      after.push(Buffer.from(piece));
      afterLen += piece.length;
    }
  };

  input.on("data", (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      bytes += piece.length;
      if (mode === 0) {
        parts.push(piece);
        held += piece.length;
        if (held > MAX_JSON_LINE) goLong();
      } else scanText(piece);
      if (nl === -1) break;
      endLine();
      start = nl + 1;
    }
    // Pieces of `chunk` held across the event must not alias a buffer the stream may reuse.
    if (mode === 0 && parts.length > 0) parts = [Buffer.concat(parts)];
  });
  input.on("end", () => {
    if (held > 0 || mode !== 0) endLine();
  });
}
