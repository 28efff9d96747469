/**
 * The read shapes, each a thin adapter over `LineReader` / `Chunks` (reader.ts): head, tail, a line range,
 * the whole text, and counting. Memory stays bounded by `maxBytes` whatever the line length.
 */
import { createHash, type Hash } from "node:crypto";
import type { ReadAt } from "../fs/safe-open.js";
import { charBoundary, charStart, type Decoding, decodeText, encodingOf } from "./decode.js";
import { LF, type Line, LineCounter } from "./lines.js";
import { Chunks, eachChunk, LineReader, type ReadLine } from "./reader.js";

/** Reads under 4 KiB come from Node's shared buffer pool: a head's first read (a few dozen lines), a small file. */
const FIRST_HEAD_CHUNK = 4095;
const TAIL_CHUNK = 64 * 1024;

export interface LinesRead {
  lines: Line[];
  /** The file has lines beyond those returned. */
  more: boolean;
  /**
   * The read stopped at `maxBytes`: the line at the far edge (the last for head, the first for tail) is
   * only a piece of a line.
   */
  partial?: boolean;
}

/** Bytes a line takes in a reply that joins lines with "\n". */
const joined = (l: ReadLine) => l.size + 1;

/** The first `n` lines, collecting at most `maxBytes` bytes of them (then `partial`: the last is cut). */
export async function headLines(
  fh: ReadAt,
  requested: string,
  n: number,
  maxBytes = Number.POSITIVE_INFINITY,
  decoding?: Decoding,
): Promise<LinesRead> {
  const reader = new LineReader(fh, { requested, chunk: FIRST_HEAD_CHUNK, decoding });
  const lines: Line[] = [];
  let kept = 0;
  while (lines.length < n) {
    const l = reader.take(maxBytes - kept) ?? (await reader.next(maxBytes - kept));
    if (l === undefined) return { lines, more: false };
    lines.push(l);
    if (l.cut) return { lines, more: true, partial: true };
    kept += joined(l);
  }
  return { lines, more: !(await reader.atEnd()) };
}

/** Bytes of a tail's backward scan kept to be read again as its lines (a longer tail re-reads them). */
const TAIL_KEEP = 1024 * 1024;

/** The bytes a backward scan read, `bytes` = the file's bytes from `at` to the end of the scan. */
interface Kept {
  bytes: Buffer;
  at: number;
}

/**
 * Where the last `n` lines start, scanning backwards (a final newline ends the last line, it does not
 * start an empty one); past `maxBytes` bytes, the offset `maxBytes` before the end (`partial`). The bytes
 * scanned come back too (`kept`) when they are few, so the lines are not read a second time.
 */
async function tailStart(fh: ReadAt, n: number, size: number, maxBytes: number) {
  const chunks = new Chunks(fh, { from: size, backward: true, size: TAIL_CHUNK, fresh: true });
  const parts: Buffer[] = [];
  let at = size;
  const found = (from: number, partial = false) => {
    const kept: Kept | undefined =
      size - at <= TAIL_KEEP && from >= at
        ? { bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts.reverse()), at }
        : undefined;
    return { from, kept, ...(partial ? { partial: true } : {}) };
  };
  let newlines = 0;
  for (let b = await chunks.next(); b !== undefined; b = await chunks.next()) {
    // Kept only while the chunks are contiguous (a short read leaves a gap) and few.
    if (chunks.at + b.length === at && size - chunks.at <= TAIL_KEEP) {
      parts.push(b);
      at = chunks.at;
    }
    const end = chunks.at + b.length === size && b[b.length - 1] === LF ? b.length - 1 : b.length;
    for (let i = end - 1; i >= 0; i--) if (b[i] === LF && ++newlines === n) return found(chunks.at + i + 1);
    if (size - chunks.at > maxBytes && chunks.at > 0) return found(size - maxBytes, true);
  }
  return found(0);
}

/** A file whose bytes from `kept.at` on are served from memory (the end of a tail, already read once). */
function withKept(fh: ReadAt, kept: Kept | undefined): ReadAt {
  if (kept === undefined) return fh;
  return {
    read: async (buffer, offset, length, position) => {
      if (position < kept.at) return fh.read(buffer, offset, length, position);
      const from = Math.min(position - kept.at, kept.bytes.length);
      const bytesRead = kept.bytes.copy(buffer, offset, from, Math.min(from + length, kept.bytes.length));
      return { bytesRead };
    },
    stat: (opts) => fh.stat(opts),
  };
}

/** The last `n` lines; past `maxBytes` bytes, `partial`: the first line returned is the end of a line. */
export async function tailLines(
  fh: ReadAt,
  requested: string,
  n: number,
  size: number,
  maxBytes = Number.POSITIVE_INFINITY,
  decoding?: Decoding,
): Promise<LinesRead> {
  const start = await tailStart(fh, n, size, maxBytes);
  const source = withKept(fh, start.kept);
  let from = start.from;
  if (start.partial) {
    // A cut character at the start is dropped.
    const head = Buffer.alloc(4);
    const { bytesRead } = await source.read(head, 0, 4, from);
    from += charStart(head.subarray(0, bytesRead), 0);
  }
  const reader = new LineReader(source, { requested, from, chunk: TAIL_CHUNK, decoding });
  const lines: Line[] = [];
  for (
    let l = reader.take() ?? (await reader.next());
    l !== undefined;
    l = reader.take() ?? (await reader.next())
  )
    lines.push(l);
  return { lines, more: from > 0, ...(start.partial ? { partial: true } : {}) };
}

export interface RangeRead {
  /** Lines `start..end` (1-based, inclusive), or a prefix of them when `maxBytes` stopped the read. */
  lines: Line[];
  /** The file has lines after the last one returned. */
  more: boolean;
  /** `maxBytes` stopped the read before `end`. */
  truncated: boolean;
  /** The only line returned is the start of a line longer than `maxBytes`. */
  cutLine?: boolean;
  /** Where reading stopped: the byte offset just past the lines consumed, and how many lines those are. */
  stop: { offset: number; lines: number };
  /** sha256 of every byte of the file, when `hash` was given and the read went to the end of the file. */
  sha256?: string;
}

/**
 * Lines `start..end` (`end` omitted: to the end). Lines before the range are only counted, never decoded;
 * reading stops at the end of the range, or once the kept lines pass `maxBytes`.
 */
export async function rangeLines(
  fh: ReadAt,
  requested: string,
  start: number,
  end = Number.POSITIVE_INFINITY,
  opts: { maxBytes?: number; hash?: Hash; decoding?: Decoding; size?: number } = {},
): Promise<RangeRead> {
  const maxBytes = opts.maxBytes ?? Number.POSITIVE_INFINITY;
  // A file under 4 KiB by its status (most source files an agent reads) is read through a buffer of Node's
  // shared pool instead of a fresh 256 KiB one, whose external memory drives the collector.
  const chunk = opts.size !== undefined && opts.size < FIRST_HEAD_CHUNK ? FIRST_HEAD_CHUNK : undefined;
  const reader = new LineReader(fh, { requested, hash: opts.hash, decoding: opts.decoding, chunk });
  const lines: Line[] = [];
  const stop = () => ({ offset: reader.offset, lines: reader.lineNo - 1 });
  if (!(await reader.skipTo(start))) return { lines, more: false, truncated: false, stop: stop() };
  let bytes = 0;
  while (reader.lineNo <= end) {
    const at = { offset: reader.offset, lines: reader.lineNo - 1 };
    const l = reader.take(maxBytes - bytes) ?? (await reader.next(maxBytes - bytes));
    if (l === undefined) {
      const sha256 = opts.hash?.digest("hex");
      return { lines, more: false, truncated: false, stop: stop(), ...(sha256 ? { sha256 } : {}) };
    }
    if (l.cut) {
      if (lines.length > 0) return { lines, more: true, truncated: true, stop: at };
      return { lines: [l], more: true, truncated: true, cutLine: true, stop: at };
    }
    lines.push(l);
    bytes += joined(l);
  }
  return { lines, more: !(await reader.atEnd()), truncated: false, stop: stop() };
}

/** Lines from byte `offset` (just past a line break) to the end of the file, counted chunk by chunk. */
export async function countLinesFrom(fh: ReadAt, offset: number): Promise<number> {
  const counter = new LineCounter();
  await eachChunk(fh, { from: offset }, (b) => {
    counter.push(b);
    return undefined;
  });
  return counter.lines;
}

export interface WholeRead {
  text: string;
  size: number;
  /** The file is longer than `limit`: `text` is its first `limit` bytes, cut at a character. */
  truncated: boolean;
  /** For a complete read: the sha256 of its bytes and its lines, counted as every read counts them. */
  sha256?: string;
  totalLines?: number;
}

/** The whole text (at most `limit` bytes of it), decoded once. */
export async function wholeText(
  fh: ReadAt,
  requested: string,
  limit: number,
  size: number,
  decoding?: Decoding,
): Promise<WholeRead> {
  const want = Math.min(size, limit);
  const parts: Buffer[] = [];
  let got = 0;
  if (want > 0)
    await eachChunk(fh, { size: want, fresh: true }, (b) => {
      parts.push(b.subarray(0, Math.min(b.length, want - got)));
      got += b.length;
      return got >= want;
    });
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  const encoding = encodingOf(bytes);
  if (size > limit)
    return {
      text: decoding
        ? decoding.decodePrefix(bytes)
        : decodeText(bytes.subarray(0, charBoundary(bytes)), encoding, requested),
      size,
      truncated: true,
    };
  const text = decoding ? decoding.decode(bytes) : decodeText(bytes, encoding, requested);
  const counter = new LineCounter();
  counter.push(bytes);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { text, size, truncated: false, sha256, totalLines: counter.lines };
}
