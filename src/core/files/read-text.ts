import { createHash } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { utf8Boundary } from "./line-range.js";
import type { ReadAt } from "./safe-open.js";
import { LF, LineCounter, lineEnd, splitLines } from "./text-lines.js";

const CHUNK = 64 * 1024;
/**
 * A head's first read: a few dozen ordinary lines, from Node's shared buffer pool (under 4 KiB), instead of a
 * 64 KiB buffer per call; longer heads go on in CHUNKs.
 */
const FIRST_HEAD_CHUNK = 4095;

export interface LinesResult {
  lines: string[];
  /** True when the file has more lines than were returned. */
  more: boolean;
  /**
   * The reading stopped at `maxBytes`: the line at the far edge (the last for head, the first for tail) is
   * only a piece of a line. Memory stays bounded by `maxBytes` whatever the line length.
   */
  partial?: boolean;
}

/**
 * The first `n` lines, reading only as many chunks as needed and collecting at most `maxBytes` bytes of
 * them (then `partial`: the last line is cut). A final newline ends the last line.
 */
export async function headLines(
  fh: ReadAt,
  n: number,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<LinesResult> {
  // The lines kept, as views of the chunks read (each chunk is a buffer of its own, so nothing is copied
  // line by line); a chunk is left only when all of it is kept.
  const parts: Buffer[] = [];
  let kept = 0;
  let lines = 0;
  let pos = 0;
  const done = (more: boolean, partial: boolean): LinesResult => {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    // A cut in the middle of a multi-byte character is dropped rather than shown as U+FFFD.
    const text = bytes.toString("utf8", 0, partial ? utf8Boundary(bytes) : bytes.length);
    return { lines: splitLines(text), more, ...(partial ? { partial } : {}) };
  };
  for (let size = FIRST_HEAD_CHUNK; ; size = CHUNK) {
    const buf = Buffer.allocUnsafe(size);
    const { bytesRead } = await fh.read(buf, 0, size, pos);
    if (bytesRead === 0) return done(false, false);
    if (lines === n) return done(true, false);
    pos += bytesRead;
    let i = 0;
    while (i < bytesRead) {
      if (lines === n) {
        parts.push(buf.subarray(0, i));
        return done(true, false);
      }
      const nl = lineEnd(buf, i, bytesRead);
      const end = nl === -1 ? bytesRead : nl + 1;
      const room = maxBytes - kept;
      if (end - i > room) {
        parts.push(buf.subarray(0, i + room));
        return done(true, true);
      }
      kept += end - i;
      if (nl !== -1) lines++;
      i = end;
    }
    parts.push(buf.subarray(0, bytesRead));
  }
}

/**
 * The last `n` lines, reading backwards in chunks until n+1 line breaks are seen (a final newline ends the
 * last line, it does not start an empty one — the official server's off-by-one), or until `maxBytes` bytes
 * are held (then `partial`: the first line returned is only the end of a line).
 */
export async function tailLines(
  fh: ReadAt,
  n: number,
  size?: number,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<LinesResult> {
  const total = size ?? Number((await fh.stat({ bigint: true })).size);
  const chunks: Buffer[] = [];
  let held = 0;
  let pos = total;
  let newlines = 0;
  let trailingChecked = false;
  while (pos > 0) {
    const len = Math.min(CHUNK, pos);
    pos -= len;
    const buf = Buffer.allocUnsafe(len);
    await fh.read(buf, 0, len, pos);
    chunks.unshift(buf);
    held += len;
    let end = len;
    if (!trailingChecked) {
      trailingChecked = true;
      if (buf[len - 1] === LF) end = len - 1;
    }
    for (let i = end - 1; i >= 0; i--) {
      if (buf[i] === LF && ++newlines === n) {
        const rest = Buffer.concat(chunks).subarray(i + 1);
        return { lines: splitLines(rest.toString("utf8")), more: true };
      }
    }
    if (held > maxBytes && pos > 0) {
      // Enough for the reply: what is held starts inside a line; drop a cut character at its start.
      const rest = Buffer.concat(chunks);
      let from = rest.length - Math.min(rest.length, maxBytes);
      while (from < rest.length && (rest[from]! & 0xc0) === 0x80) from++;
      return { lines: splitLines(rest.toString("utf8", from)), more: true, partial: true };
    }
  }
  return { lines: splitLines(Buffer.concat(chunks).toString("utf8")), more: false };
}

/** Reads a whole file as UTF-8, refusing to read past `limit` bytes (returns `truncated` instead). */
export async function readTextUpTo(
  fh: ReadAt,
  limit: number,
  knownSize?: number,
): Promise<{ text: string; size: number; truncated: boolean; sha256?: string; totalLines?: number }> {
  const size = knownSize ?? Number((await fh.stat({ bigint: true })).size);
  const want = Math.min(size, limit);
  const buf = Buffer.allocUnsafe(want);
  let got = 0;
  while (got < want) {
    const { bytesRead } = await fh.read(buf, got, want - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  const decoder = new StringDecoder("utf8");
  // A cut in the middle of a multi-byte character is dropped rather than shown as U+FFFD.
  const text = size > limit ? decoder.write(buf.subarray(0, got)) : buf.subarray(0, got).toString("utf8");
  if (size > limit) return { text, size, truncated: true };
  // A complete read: its hash identifies the whole file's bytes, and its lines are counted as ranges count.
  const bytes = buf.subarray(0, got);
  const counter = new LineCounter();
  counter.push(bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { text, size, truncated: false, sha256, totalLines: counter.lines };
}
