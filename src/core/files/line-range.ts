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
}

export interface LineRangeOptions {
  /** Stop collecting once the returned lines exceed this many bytes (whole lines are kept). */
  maxBytes?: number;
}

/**
 * Streams a file and returns lines `startLine..endLine` (1-based, inclusive; `endLine` omitted = to the end).
 * Line breaks are universal, as Python's text mode reads them: CRLF, LF and a lone CR each end a line.
 * Lines before the range are only counted, never decoded; reading stops at the end of the range.
 */
export async function readLineRange(
  fh: FileHandle,
  startLine: number,
  endLine?: number,
  opts: LineRangeOptions = {},
): Promise<LineRange> {
  const last = endLine ?? Number.POSITIVE_INFINITY;
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
  let bytes = 0;
  let pos = 0;
  // The previous chunk ended in CR: an LF at the start of the next chunk belongs to that line break.
  let pendingCr = false;

  const finish = async (afterPos: number, lastNewline: boolean, truncated: boolean): Promise<LineRange> => {
    // Is there any byte after the line break that ended the last returned line?
    const peek = Buffer.allocUnsafe(2);
    const { bytesRead } = await fh.read(peek, 0, 2, afterPos);
    let more = bytesRead > 0;
    if (more && pendingCr && peek[0] === LF) more = bytesRead > 1;
    return { lines, more, lastNewline, truncated };
  };

  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    const chunkStart = pos;
    pos += bytesRead;
    let i = 0;
    if (pendingCr) {
      pendingCr = false;
      if (buf[0] === LF) i = 1;
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
        if (lineNo >= startLine) parts.push(Buffer.from(buf.subarray(i, bytesRead)));
        i = bytesRead;
        break;
      }
      if (lineNo >= startLine) {
        parts.push(buf.subarray(i, end));
        const line = decode(parts);
        parts = [];
        lines.push(line);
        bytes += Buffer.byteLength(line) + 1;
        if (lineNo >= last) return finish(chunkStart + end + breakLen, true, false);
        if (opts.maxBytes !== undefined && bytes > opts.maxBytes) {
          lines.pop();
          // Leave at least one line so a caller always makes progress.
          if (lines.length === 0) lines.push(line);
          return { lines, more: true, lastNewline: true, truncated: true };
        }
      }
      lineNo++;
      i = end + breakLen;
    }
  }
  // End of file: a final line without a line break.
  if (lineNo >= startLine && lineNo <= last && parts.length > 0) {
    const line = decode(parts);
    if (opts.maxBytes !== undefined && bytes + Buffer.byteLength(line) > opts.maxBytes && lines.length > 0)
      return { lines, more: true, lastNewline: true, truncated: true };
    lines.push(line);
    return { lines, more: false, lastNewline: false, truncated: false };
  }
  return { lines, more: false, lastNewline: lines.length > 0, truncated: false };
}
