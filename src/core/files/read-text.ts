import { createHash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { LineCounter } from "./line-range.js";

const CHUNK = 64 * 1024;

/** Splits text into lines on LF, dropping one CR before each LF so CRLF and LF files read alike. */
export function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

export interface LinesResult {
  lines: string[];
  /** True when the file has more lines than were returned. */
  more: boolean;
}

/** The first `n` lines, reading only as many chunks as needed; UTF-8 is decoded across chunk edges. */
export async function headLines(fh: FileHandle, n: number): Promise<LinesResult> {
  const decoder = new StringDecoder("utf8");
  const buf = Buffer.allocUnsafe(CHUNK);
  const lines: string[] = [];
  let partial = "";
  let pos = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    partial += decoder.write(buf.subarray(0, bytesRead));
    let nl = partial.indexOf("\n");
    while (nl !== -1) {
      if (lines.length === n) return { lines, more: true };
      lines.push(stripCr(partial.slice(0, nl)));
      partial = partial.slice(nl + 1);
      nl = partial.indexOf("\n");
    }
    if (lines.length === n) {
      // Anything after the n-th newline means more lines follow.
      if (partial.length > 0) return { lines, more: true };
      const peek = await fh.read(buf, 0, 1, pos);
      return { lines, more: peek.bytesRead > 0 };
    }
  }
  partial += decoder.end();
  if (partial.length > 0 && lines.length < n) lines.push(stripCr(partial));
  else if (partial.length > 0) return { lines, more: true };
  return { lines, more: false };
}

/**
 * The last `n` lines, reading backwards in chunks until n+1 line breaks are seen (a final newline ends the
 * last line, it does not start an empty one — the official server's off-by-one).
 */
export async function tailLines(fh: FileHandle, n: number, size?: number): Promise<LinesResult> {
  const total = size ?? (await fh.stat()).size;
  const chunks: Buffer[] = [];
  let pos = total;
  let newlines = 0;
  let trailingChecked = false;
  while (pos > 0) {
    const len = Math.min(CHUNK, pos);
    pos -= len;
    const buf = Buffer.allocUnsafe(len);
    await fh.read(buf, 0, len, pos);
    chunks.unshift(buf);
    let end = len;
    if (!trailingChecked) {
      trailingChecked = true;
      if (buf[len - 1] === 0x0a) end = len - 1;
    }
    for (let i = end - 1; i >= 0; i--) {
      if (buf[i] === 0x0a && ++newlines === n) {
        const rest = Buffer.concat(chunks).subarray(i + 1);
        return { lines: splitLines(rest.toString("utf8")), more: true };
      }
    }
  }
  return { lines: splitLines(Buffer.concat(chunks).toString("utf8")), more: false };
}

function stripCr(s: string): string {
  return s.endsWith("\r") ? s.slice(0, -1) : s;
}

/** Reads a whole file as UTF-8, refusing to read past `limit` bytes (returns `truncated` instead). */
export async function readTextUpTo(
  fh: FileHandle,
  limit: number,
  knownSize?: number,
): Promise<{ text: string; size: number; truncated: boolean; sha256?: string; totalLines?: number }> {
  const size = knownSize ?? (await fh.stat()).size;
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
