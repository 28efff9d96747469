import type { Hash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { ToolError } from "../errors.js";
import { isCrlfAt, LineCounter, lineEnd } from "./text-lines.js";

/** Large reads: a range near the end of a 200 MB file is one sequential pass at disk speed. */
const CHUNK = 256 * 1024;
const CR = 0x0d;

/** Thrown when the bytes of a returned line are not valid UTF-8. */
export class InvalidTextError extends ToolError {
  constructor() {
    super("The file is not valid UTF-8 text", "invalid");
    this.name = "InvalidTextError";
  }
}

export interface LineRange {
  /** The lines `startLine..endLine` (1-based, inclusive), without their line breaks. */
  lines: string[];
  /** True when the file has lines after the last one returned. */
  more: boolean;
  /** Whether the last returned line ended with a line break (false for a final unterminated line). */
  lastNewline: boolean;
  /** True when `maxBytes` stopped the read before `endLine` (lines is then a prefix of the range). */
  truncated: boolean;
  /**
   * The only returned line is the start of a line longer than `maxBytes`: it was cut (at a character
   * boundary) while streaming, so memory stays bounded by the budget whatever the line length.
   */
  cutLine?: boolean;
  /** Where reading stopped: the byte offset just past the lines consumed, and how many lines those are. */
  stop: { offset: number; lines: number };
  /** sha256 of every byte of the file, when `hash` was given and the read went to the end of the file. */
  sha256?: string;
}

export interface LineRangeOptions {
  /**
   * Stop collecting once the returned lines exceed this many bytes (whole lines are kept; a first line
   * longer than this is returned cut, see `cutLine`).
   */
  maxBytes?: number;
  /** Fed every byte read; its digest is returned when the read reaches the end of the file. */
  hash?: Hash;
}

/** Lines from byte `offset` (just past a line break) to the end of the file, one chunk at a time. */
export async function countLinesFrom(fh: FileHandle, offset: number): Promise<number> {
  const counter = new LineCounter();
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let pos = offset; ; ) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) return counter.lines;
    counter.push(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
}

/** Length of the longest prefix of `b` that does not end inside a UTF-8 sequence. */
export function utf8Boundary(b: Uint8Array): number {
  let i = b.length;
  // Step back over up to 3 continuation bytes to the lead byte of the last sequence.
  for (let back = 0; back < 4 && i > 0; back++) {
    const c = b[i - 1]!;
    if ((c & 0xc0) !== 0x80) {
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      return back + 1 >= need ? b.length : i - 1;
    }
    i--;
  }
  return b.length;
}

/**
 * Streams a file and returns lines `startLine..endLine` (1-based, inclusive; `endLine` omitted = to the end).
 * Lines end as text-lines.ts says (at LF; a CRLF line's CR is not returned; a lone CR is content).
 * Lines before the range are only counted, never decoded; reading stops at the end of the range, or once
 * the collected bytes pass `maxBytes` (so memory is bounded by it, whatever the line length).
 */
export async function readLineRange(
  fh: FileHandle,
  startLine: number,
  endLine?: number,
  opts: LineRangeOptions = {},
): Promise<LineRange> {
  const last = endLine ?? Number.POSITIVE_INFINITY;
  const maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  // ignoreBOM: a U+FEFF is content, as every other read shows it (decode() would drop one at each line start).
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const decode = (parts: Buffer[]): string => {
    try {
      return decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch {
      throw new InvalidTextError();
    }
  };
  const buf = Buffer.allocUnsafe(CHUNK);
  const lines: string[] = [];
  let lineNo = 1;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let bytes = 0;
  let pos = 0;
  // Byte offset where the current line starts.
  let lineStart = 0;
  const finish = async (afterPos: number, lastNewline: boolean, truncated: boolean): Promise<LineRange> => {
    // Is there any byte after the line break that ended the last returned line?
    const peek = Buffer.allocUnsafe(1);
    const { bytesRead } = await fh.read(peek, 0, 1, afterPos);
    const more = bytesRead > 0;
    const offset = afterPos;
    return { lines, more, lastNewline, truncated, stop: { offset, lines: lineNo } };
  };
  // The line being collected would pass the budget: stop before it, or cut it if it is the first.
  const overBudget = (segment: Buffer): LineRange => {
    const stop = { offset: lineStart, lines: lineNo - 1 };
    if (lines.length > 0) return { lines, more: true, lastNewline: true, truncated: true, stop };
    const room = Math.max(0, maxBytes - partBytes);
    const head = segment.subarray(0, room);
    const all = parts.length > 0 ? Buffer.concat([...parts, head]) : head;
    lines.push(decode([all.subarray(0, utf8Boundary(all))]));
    return { lines, more: true, lastNewline: false, truncated: true, cutLine: true, stop };
  };

  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    opts.hash?.update(buf.subarray(0, bytesRead));
    const chunkStart = pos;
    pos += bytesRead;
    let i = 0;
    if (lineNo < startLine) {
      // Lines before the range are only counted: one native scan per line.
      while (lineNo < startLine) {
        const nl = lineEnd(buf, i, bytesRead);
        if (nl === -1) {
          i = bytesRead;
          break;
        }
        lineNo++;
        i = nl + 1;
        lineStart = chunkStart + i;
      }
      if (lineNo < startLine) continue;
    }
    while (i < bytesRead) {
      const nl = lineEnd(buf, i, bytesRead);
      if (nl === -1) {
        // No line break in the rest of this chunk: the line continues in the next one.
        const segment = buf.subarray(i, bytesRead);
        if (bytes + partBytes + segment.length > maxBytes) return overBudget(segment);
        parts.push(Buffer.from(segment));
        partBytes += segment.length;
        break;
      }
      let segment = buf.subarray(i, nl);
      // A CRLF line's CR is its line break's, not its text (it may end the part from the previous chunk).
      if (isCrlfAt(buf, nl, i)) segment = segment.subarray(0, segment.length - 1);
      else if (nl === i && parts.length > 0) {
        const prev = parts[parts.length - 1]!;
        if (prev.length > 0 && prev[prev.length - 1] === CR) {
          parts[parts.length - 1] = prev.subarray(0, prev.length - 1);
          partBytes--;
        }
      }
      // `bytes` counts one byte per line for its break, as the caller joins lines with "\n".
      if (bytes + partBytes + segment.length > maxBytes) return overBudget(segment);
      parts.push(segment);
      const line = decode(parts);
      parts = [];
      bytes += partBytes + segment.length + 1;
      partBytes = 0;
      lines.push(line);
      if (lineNo >= last) return finish(chunkStart + nl + 1, true, false);
      lineNo++;
      i = nl + 1;
      lineStart = chunkStart + i;
    }
  }
  const sha256 = opts.hash?.digest("hex");
  // End of file: a final line without a line break.
  const finalLine = pos > lineStart;
  const stop = { offset: pos, lines: lineNo - 1 + (finalLine ? 1 : 0) };
  if (lineNo >= startLine && lineNo <= last && parts.length > 0) {
    lines.push(decode(parts));
    return { lines, more: false, lastNewline: false, truncated: false, stop, sha256 };
  }
  return { lines, more: false, lastNewline: lines.length > 0, truncated: false, stop, sha256 };
}
