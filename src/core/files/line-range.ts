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
    super("The file is not valid UTF-8 text", "not_utf8");
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
  const range = new RangeCollector(startLine, endLine ?? Number.POSITIVE_INFINITY, opts.maxBytes);
  const buf = Buffer.allocUnsafe(CHUNK);
  let pos = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    opts.hash?.update(buf.subarray(0, bytesRead));
    const chunkStart = pos;
    pos += bytesRead;
    const from = range.skip(buf, bytesRead, chunkStart);
    if (from < 0) continue;
    const done = range.collect(buf, from, bytesRead, chunkStart);
    if (typeof done === "number") return range.endedAt(done, await hasByteAt(fh, done));
    if (done) return done;
  }
  return range.atEndOfFile(pos, opts.hash?.digest("hex"));
}

async function hasByteAt(fh: FileHandle, offset: number): Promise<boolean> {
  const { bytesRead } = await fh.read(Buffer.allocUnsafe(1), 0, 1, offset);
  return bytesRead > 0;
}

/**
 * One range read's state between chunks: the line number, where the current line starts, the lines
 * kept, the bytes of a line that runs on into the next chunk, and the budget spent.
 */
class RangeCollector {
  private readonly lines: string[] = [];
  private lineNo = 1;
  /** Byte offset where the current line starts. */
  private lineStart = 0;
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Bytes of the kept lines, one per line for its break (the caller joins lines with "\n"). */
  private bytes = 0;
  // ignoreBOM: a U+FEFF is content, as every other read shows it (decode() would drop one at each line start).
  private readonly decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

  constructor(
    private readonly startLine: number,
    private readonly last: number,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Counts (never decodes) lines before the range: where the range starts in `buf`, or -1 not in it. */
  skip(buf: Buffer, n: number, chunkStart: number): number {
    let i = 0;
    // One native scan per line.
    while (this.lineNo < this.startLine) {
      const nl = lineEnd(buf, i, n);
      if (nl === -1) return -1;
      this.lineNo++;
      i = nl + 1;
      this.lineStart = chunkStart + i;
    }
    return i;
  }

  /**
   * Collects lines from `buf[i..n)`: the result once the budget is spent, the offset just past the range's
   * last line once that is kept, undefined when the range goes on in the next chunk.
   */
  collect(buf: Buffer, i: number, n: number, chunkStart: number): LineRange | number | undefined {
    while (i < n) {
      const nl = lineEnd(buf, i, n);
      if (nl === -1) {
        // No line break in the rest of this chunk: the line continues in the next one.
        const segment = buf.subarray(i, n);
        if (this.bytes + this.partBytes + segment.length > this.maxBytes) return this.overBudget(segment);
        this.parts.push(Buffer.from(segment));
        this.partBytes += segment.length;
        return undefined;
      }
      let segment = buf.subarray(i, nl);
      // A CRLF line's CR is its line break's, not its text (it may end the part from the previous chunk).
      if (isCrlfAt(buf, nl, i)) segment = segment.subarray(0, segment.length - 1);
      else if (nl === i) this.dropCarriedCr();
      if (this.bytes + this.partBytes + segment.length > this.maxBytes) return this.overBudget(segment);
      this.parts.push(segment);
      const line = this.decode(this.parts);
      this.parts = [];
      this.bytes += this.partBytes + segment.length + 1;
      this.partBytes = 0;
      this.lines.push(line);
      if (this.lineNo >= this.last) return chunkStart + nl + 1;
      this.lineNo++;
      i = nl + 1;
      this.lineStart = chunkStart + i;
    }
    return undefined;
  }

  /** A chunk that starts with the LF of a CRLF split across chunks: the CR ends the carried part. */
  private dropCarriedCr(): void {
    const parts = this.parts;
    if (parts.length === 0) return;
    const prev = parts[parts.length - 1]!;
    if (prev.length > 0 && prev[prev.length - 1] === CR) {
      parts[parts.length - 1] = prev.subarray(0, prev.length - 1);
      this.partBytes--;
    }
  }

  /** The line being collected would pass the budget: stop before it, or cut it if it is the first. */
  private overBudget(segment: Buffer): LineRange {
    const { lines, parts } = this;
    const stop = { offset: this.lineStart, lines: this.lineNo - 1 };
    if (lines.length > 0) return { lines, more: true, lastNewline: true, truncated: true, stop };
    const room = Math.max(0, this.maxBytes - this.partBytes);
    const head = segment.subarray(0, room);
    const all = parts.length > 0 ? Buffer.concat([...parts, head]) : head;
    lines.push(this.decode([all.subarray(0, utf8Boundary(all))]));
    return { lines, more: true, lastNewline: false, truncated: true, cutLine: true, stop };
  }

  /** The range's last line was kept, its line break ending just before `offset`. */
  endedAt(offset: number, more: boolean): LineRange {
    return {
      lines: this.lines,
      more,
      lastNewline: true,
      truncated: false,
      stop: { offset, lines: this.lineNo },
    };
  }

  /** End of file, maybe with a final line without a line break. */
  atEndOfFile(pos: number, sha256: string | undefined): LineRange {
    const { lines, lineNo } = this;
    const stop = { offset: pos, lines: lineNo - 1 + (pos > this.lineStart ? 1 : 0) };
    if (lineNo >= this.startLine && lineNo <= this.last && this.parts.length > 0) {
      lines.push(this.decode(this.parts));
      return { lines, more: false, lastNewline: false, truncated: false, stop, sha256 };
    }
    return { lines, more: false, lastNewline: lines.length > 0, truncated: false, stop, sha256 };
  }

  private decode(parts: Buffer[]): string {
    try {
      return this.decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
    } catch {
      throw new InvalidTextError();
    }
  }
}
