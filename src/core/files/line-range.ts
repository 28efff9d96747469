import type { Hash } from "node:crypto";
import type { FileHandle } from "node:fs/promises";
import { ToolError } from "../errors.js";

/** Large reads: a range near the end of a 200 MB file is one sequential pass at disk speed. */
const CHUNK = 256 * 1024;
const LF = 0x0a;
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

/**
 * Counts lines as `readLineRange` numbers them (LF, CRLF and a lone CR each end one; a final line without a
 * break counts too), chunk by chunk, so a count never holds more than one chunk.
 */
export class LineCounter {
  #breaks = 0;
  #last = -1;
  #pendingCr = false;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    // Every LF ends a line, except one right after a CR (CRLF, counted at the CR); every CR ends one.
    for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1))
      if (!(i === 0 ? this.#pendingCr : chunk[i - 1] === CR)) this.#breaks++;
    for (let i = chunk.indexOf(CR); i !== -1; i = chunk.indexOf(CR, i + 1)) this.#breaks++;
    this.#last = chunk[chunk.length - 1]!;
    this.#pendingCr = this.#last === CR;
  }

  get lines(): number {
    return this.#breaks + (this.#last !== -1 && this.#last !== LF && this.#last !== CR ? 1 : 0);
  }
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
 * Line breaks are universal, as Python's text mode reads them: CRLF, LF and a lone CR each end a line.
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
  const decoder = new TextDecoder("utf-8", { fatal: true });
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
  // The previous chunk ended in CR: an LF at the start of the next chunk belongs to that line break.
  let pendingCr = false;

  const finish = async (afterPos: number, lastNewline: boolean, truncated: boolean): Promise<LineRange> => {
    // Is there any byte after the line break that ended the last returned line?
    const peek = Buffer.allocUnsafe(2);
    const { bytesRead } = await fh.read(peek, 0, 2, afterPos);
    let more = bytesRead > 0;
    let offset = afterPos;
    if (more && pendingCr && peek[0] === LF) {
      more = bytesRead > 1;
      offset++;
    }
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
    if (pendingCr) {
      pendingCr = false;
      if (buf[0] === LF) {
        i = 1;
        lineStart = chunkStart + 1;
      }
    }
    if (lineNo < startLine) {
      // Lines before the range are only counted; in a chunk without CR that is one native scan per line.
      const cr = buf.indexOf(CR, i);
      if (cr === -1 || cr >= bytesRead) {
        while (lineNo < startLine) {
          const nl = buf.indexOf(LF, i);
          if (nl === -1 || nl >= bytesRead) {
            i = bytesRead;
            break;
          }
          lineNo++;
          i = nl + 1;
          lineStart = chunkStart + i;
        }
        if (lineNo < startLine) continue;
      }
    }
    // Next CR position in this chunk, cached so a chunk without CR is scanned for it only once.
    let nextCr = buf.indexOf(CR, i);
    if (nextCr >= bytesRead) nextCr = -1;
    while (i < bytesRead) {
      let nl = buf.indexOf(LF, i);
      if (nl >= bytesRead) nl = -1;
      if (nextCr !== -1 && nextCr < i) {
        nextCr = buf.indexOf(CR, i);
        if (nextCr >= bytesRead) nextCr = -1;
      }
      let end: number;
      let breakLen: number;
      if (nextCr !== -1 && (nl === -1 || nextCr < nl)) {
        end = nextCr;
        if (end + 1 < bytesRead) breakLen = buf[end + 1] === LF ? 2 : 1;
        else {
          breakLen = 1;
          pendingCr = true;
        }
      } else if (nl !== -1) {
        end = nl;
        breakLen = 1;
      } else {
        // No line break in the rest of this chunk: the line continues in the next one.
        if (lineNo >= startLine) {
          const segment = buf.subarray(i, bytesRead);
          if (bytes + partBytes + segment.length > maxBytes) return overBudget(segment);
          parts.push(Buffer.from(segment));
          partBytes += segment.length;
        }
        i = bytesRead;
        break;
      }
      if (lineNo >= startLine) {
        const segment = buf.subarray(i, end);
        // `bytes` counts one byte per line for its break, as the caller joins lines with "\n".
        if (bytes + partBytes + segment.length > maxBytes) return overBudget(segment);
        parts.push(segment);
        const line = decode(parts);
        parts = [];
        bytes += partBytes + segment.length + 1;
        partBytes = 0;
        lines.push(line);
        if (lineNo >= last) return finish(chunkStart + end + breakLen, true, false);
      }
      lineNo++;
      i = end + breakLen;
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
