/**
 * The one read loop (`eachChunk`) and the one line reader over it (`LineReader`, ripgrep's LineIter over a
 * verified descriptor): every text read, count and hash-while-reading of mcpfs streams through here, so
 * memory is bounded by the chunk and the caller's budget whatever the file or line length.
 */
import type { Hash } from "node:crypto";
import fs from "node:fs";
import type { ReadAt } from "../fs/safe-open.js";
import {
  type ChunkDecoder,
  type Codec,
  charBoundary,
  type Decoding,
  decodeText,
  encodingOf,
  invalidBytesError,
  notTextError,
  TextCheck,
  type TextEncoding,
} from "./decode.js";
import { type Eol, LF } from "./lines.js";

/** Large reads: a range near the end of a 200 MB file is one sequential pass at disk speed. */
export const CHUNK = 256 * 1024;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);

export interface ChunkOptions {
  /** First byte (default 0); backwards: the end (default: the file's size). */
  from?: number;
  /** Read towards the start of the file (tail). */
  backward?: boolean;
  /** Bytes per read (default CHUNK). */
  size?: number;
  /** A fresh buffer per chunk (the caller keeps views of them) instead of one reused buffer. */
  fresh?: boolean;
  /** Bytes per read after the first (default `size`); with `fresh` only. */
  later?: number;
}

/**
 * THE read loop: the file's bytes chunk by chunk, forwards from `from` or backwards from it. Every text
 * read, count and hash of mcpfs pulls its bytes through one of these.
 */
export class Chunks {
  #pos: number | undefined;
  #buf: Buffer | undefined;
  #started = false;
  /** File offset of the last chunk returned. */
  at = 0;

  constructor(
    private readonly fh: ReadAt,
    private readonly opts: ChunkOptions = {},
  ) {
    this.#pos = opts.from;
    if (!opts.fresh) this.#buf = Buffer.allocUnsafe(opts.size ?? CHUNK);
  }

  /** The next chunk (a view valid until the next call unless `fresh`), or undefined at the end. */
  async next(): Promise<Buffer | undefined> {
    const { backward } = this.opts;
    const size = (this.#started && this.opts.later) || (this.opts.size ?? CHUNK);
    this.#started = true;
    this.#pos ??= backward ? Number((await this.fh.stat({ bigint: true })).size) : 0;
    const len = backward ? Math.min(size, this.#pos) : size;
    if (len === 0) return undefined;
    const at = backward ? this.#pos - len : this.#pos;
    const b = this.#buf ?? Buffer.allocUnsafe(len);
    const { bytesRead } = await this.fh.read(b, 0, len, at);
    if (bytesRead === 0) return undefined;
    this.#pos = backward ? at : at + bytesRead;
    this.at = at;
    return bytesRead < b.length ? b.subarray(0, bytesRead) : b;
  }
}

/**
 * The same loop over a descriptor read synchronously, forwards from its current position, into one reused
 * buffer: grep's engine reads each file this way (most files are one read; no thread-pool hop per file).
 */
export class SyncChunks implements SyncChunkSource {
  readonly #buf: Buffer;

  /** `from`: read from this offset on (the descriptor's position untouched); default its position. */
  constructor(
    private readonly fd: number,
    size = CHUNK,
    private from: number | null = null,
  ) {
    this.#buf = Buffer.allocUnsafe(size);
  }

  /** The next chunk (a view valid until the next call), or undefined at the end. */
  next(): Buffer | undefined {
    const n = fs.readSync(this.fd, this.#buf, 0, this.#buf.length, this.from);
    if (this.from !== null) this.from += n;
    return n === 0 ? undefined : n < this.#buf.length ? this.#buf.subarray(0, n) : this.#buf;
  }
}

/** A source of chunks, read synchronously (a view valid until the next call), undefined at the end. */
export interface SyncChunkSource {
  next(): Buffer | undefined;
}

/**
 * A file's chunks as they are, refused (`not_utf8`, naming `requested`) at the first that is not UTF-8: a
 * search with an encoding to fall back on learns so even where it skips lines undecoded.
 */
export class Utf8Chunks implements SyncChunkSource {
  readonly #bytes: SyncChunks;
  readonly #check = new TextCheck();

  constructor(
    fd: number,
    private readonly requested: string,
    size = 64 * 1024,
  ) {
    this.#bytes = new SyncChunks(fd, size, 0);
  }

  next(): Buffer | undefined {
    const b = this.#bytes.next();
    if (!this.#check.push(b ?? EMPTY).ok(b === undefined)) throw notTextError(this.requested);
    return b;
  }
}

/**
 * The chunks of a file in another encoding (`codec`) as UTF-8 bytes, decoded piece by piece: memory stays
 * the chunk's and no decode runs long, however big the file (a 56 MiB Latin-1 file decoded whole blocked
 * the server for 3-4 s). Throws the `not_utf8` refusal naming `requested` at bytes the encoding lacks.
 */
export class DecodedChunks implements SyncChunkSource {
  readonly #bytes: SyncChunks;
  readonly #decoder: ChunkDecoder;
  #ended = false;

  constructor(
    fd: number,
    private readonly codec: Codec,
    private readonly requested: string,
    size = 64 * 1024,
  ) {
    this.#bytes = new SyncChunks(fd, size, 0);
    this.#decoder = codec.decoder();
  }

  next(): Buffer | undefined {
    for (;;) {
      if (this.#ended) return undefined;
      const b = this.#bytes.next();
      if (b === undefined) this.#ended = true;
      const text = b === undefined ? this.#decoder.end() : this.#decoder.write(b);
      if (text === undefined) throw invalidBytesError(this.requested, this.codec.name);
      // A piece that completed no character (a split one) gives nothing yet: read on.
      if (text !== "") return Buffer.from(text, "utf8");
    }
  }
}

/**
 * A whole file's bytes, at most `max`, through the one loop: one read of the size the caller expects (its
 * stat), then 64 KiB reads only while the file has more (it grew meanwhile) and `max` is not reached.
 */
export async function readBytes(
  fh: ReadAt,
  expected: number,
  max = Number.POSITIVE_INFINITY,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  const first = Math.max(1, Math.min(expected, max));
  const chunks = new Chunks(fh, { from: 0, size: first, later: 64 * 1024, fresh: true });
  for (let b = await chunks.next(); b !== undefined; b = await chunks.next()) {
    const part = total + b.length > max ? b.subarray(0, max - total) : b;
    parts.push(part);
    total += part.length;
    if (total >= max) break;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}

/** Hands `each` every chunk with its offset (see `Chunks`) until it returns true or the file ends. */
export async function eachChunk(
  fh: ReadAt,
  opts: ChunkOptions,
  each: (chunk: Buffer, at: number) => boolean | undefined,
): Promise<void> {
  const chunks = new Chunks(fh, opts);
  for (let b = await chunks.next(); b !== undefined; b = await chunks.next()) if (each(b, chunks.at)) return;
}

/** One line of a file, as the reader yields it. */
export interface ReadLine {
  lineNo: number;
  text: string;
  eol: "" | Eol;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Bytes of `text` in the file. */
  size: number;
  /** The line was longer than the reader's `maxBytes`: `text` is its start, cut at a character. */
  cut?: boolean;
}

export interface LineReaderOptions {
  /** The path the client asked for: a decode error names it. */
  requested: string;
  /** Byte offset to start at (just past a line break), default 0. */
  from?: number;
  /** The number of the line at `from` (default 1). */
  lineNo?: number;
  /** Fed every byte read from offset 0 on (hash-while-reading; only with `from` 0). */
  hash?: Hash;
  encoding?: TextEncoding;
  /** The read's decode policy when the file may not be UTF-8 (decode.ts `decodingFor`; bytewise codecs only). */
  decoding?: Decoding;
  /** Bytes per read; a first small read serves a head from Node's buffer pool. */
  chunk?: number;
}

/**
 * Lines of a file from an offset, one decode policy (`decodeText`). Lines skipped with `skipTo` are only
 * counted, never decoded. Not for concurrent use; one reader per read.
 */
export class LineReader {
  #buf: Buffer = Buffer.alloc(0);
  /** Index in #buf of the next unread byte. */
  #i = 0;
  /** File offset of #buf[0]. */
  #at: number;
  #eof = false;
  #parts: Buffer[] = [];
  #partBytes = 0;
  #lineNo: number;
  #encoding: TextEncoding | undefined;
  readonly #chunks: Chunks;

  constructor(
    fh: ReadAt,
    private readonly opts: LineReaderOptions,
  ) {
    this.#at = opts.from ?? 0;
    this.#lineNo = opts.lineNo ?? 1;
    this.#encoding = opts.encoding ?? (this.#at > 0 ? "utf-8" : undefined);
    // The reader copies what it keeps (#parts), so one buffer serves every read.
    this.#chunks = new Chunks(fh, { from: this.#at, size: opts.chunk });
  }

  /** The number of the next line. */
  get lineNo(): number {
    return this.#lineNo;
  }

  /** Byte offset just past the lines read (or skipped) so far. */
  get offset(): number {
    return this.#at + this.#i - this.#partBytes;
  }

  /** Reads the next chunk; false at the end of the file. */
  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    this.#at += this.#buf.length;
    const b = await this.#chunks.next();
    this.#buf = b ?? Buffer.alloc(0);
    this.#i = 0;
    if (b === undefined) {
      this.#eof = true;
      return false;
    }
    this.opts.hash?.update(this.#buf);
    this.#encoding ??= encodingOf(this.#buf);
    return true;
  }

  /** Counts (never decodes) lines up to line `lineNo`; false when the file ends before it. */
  async skipTo(lineNo: number): Promise<boolean> {
    // Locals in the loop: one native scan per line, nothing else (2M lines of a 200 MB file).
    let n = this.#lineNo;
    let i = this.#i;
    let buf = this.#buf;
    let partial = this.#partBytes;
    while (n < lineNo) {
      const nl = buf.indexOf(LF, i);
      if (nl !== -1) {
        n++;
        i = nl + 1;
        partial = 0;
        continue;
      }
      partial += buf.length - i;
      this.#i = buf.length;
      if (!(await this.#fill())) {
        // A final line without a break was skipped too.
        this.#lineNo = partial > 0 ? n + 1 : n;
        this.#partBytes = 0;
        return false;
      }
      buf = this.#buf;
      i = 0;
    }
    this.#lineNo = n;
    this.#i = i;
    this.#partBytes = partial;
    return true;
  }

  /** Whether any byte follows the lines read so far. */
  async atEnd(): Promise<boolean> {
    if (this.#i < this.#buf.length || this.#partBytes > 0) return false;
    return !(await this.#fill());
  }

  /**
   * The next line, or undefined at the end of the file. A line longer than `maxBytes` is returned cut (its
   * first bytes, at a character boundary; `cut`), so memory stays bounded; the reader is done after it.
   */
  async next(maxBytes = Number.POSITIVE_INFINITY): Promise<ReadLine | undefined> {
    const offset = this.offset;
    for (;;) {
      const line = this.take(maxBytes, offset);
      if (line !== null) return line;
      if (!(await this.#fill())) return this.#partBytes === 0 ? undefined : this.#emit(EMPTY, "", offset);
    }
  }

  /**
   * The next line when the bytes read so far hold it (or a cut of it); null when it needs another read.
   * Synchronous: a caller takes the lines of a chunk without a promise per line (`reader.take(m) ?? await
   * reader.next(m)`).
   */
  take(maxBytes = Number.POSITIVE_INFINITY, offset = this.offset): ReadLine | null {
    const buf = this.#buf;
    const i = this.#i;
    const nl = buf.indexOf(LF, i);
    if (nl !== -1) {
      let line = buf.subarray(i, nl);
      let eol: Eol = "\n";
      if (nl > i && buf[nl - 1] === CR) {
        line = line.subarray(0, line.length - 1);
        eol = "\r\n";
      } else if (nl === i && this.#dropCarriedCr()) eol = "\r\n";
      if (this.#partBytes + line.length > maxBytes) return this.#cut(line, maxBytes, offset);
      this.#i = nl + 1;
      return this.#emit(line, eol, offset);
    }
    const rest = buf.subarray(i);
    if (rest.length > 0 && this.#partBytes + rest.length > maxBytes) return this.#cut(rest, maxBytes, offset);
    if (rest.length > 0) {
      this.#parts.push(Buffer.from(rest));
      this.#partBytes += rest.length;
    }
    this.#i = buf.length;
    return null;
  }

  #emit(last: Buffer, eol: "" | Eol, offset: number): ReadLine {
    const parts = this.#parts;
    const bytes = parts.length === 0 ? last : Buffer.concat([...parts, last]);
    this.#parts = [];
    this.#partBytes = 0;
    const text = this.#decode(bytes);
    return { lineNo: this.#lineNo++, text, eol, offset, size: bytes.length };
  }

  #cut(segment: Buffer, maxBytes: number, offset: number): ReadLine {
    const room = Math.max(0, maxBytes - this.#partBytes);
    const all = Buffer.concat([...this.#parts, segment.subarray(0, room)]);
    this.#parts = [];
    this.#partBytes = 0;
    this.#i = this.#buf.length;
    this.#eof = true;
    const d = this.opts.decoding;
    const bytes = d ? all : all.subarray(0, charBoundary(all));
    const text = d ? d.decodePrefix(bytes) : this.#decode(bytes);
    return { lineNo: this.#lineNo, text, eol: "", offset, size: bytes.length, cut: true };
  }

  #decode(bytes: Buffer): string {
    const d = this.opts.decoding;
    return d ? d.decode(bytes) : decodeText(bytes, this.#encoding ?? "utf-8", this.opts.requested);
  }

  /** A chunk that starts with the LF of a CRLF split across chunks: the CR ends the carried part. */
  #dropCarriedCr(): boolean {
    const parts = this.#parts;
    if (parts.length === 0) return false;
    const prev = parts[parts.length - 1]!;
    if (prev.length === 0 || prev[prev.length - 1] !== CR) return false;
    parts[parts.length - 1] = prev.subarray(0, prev.length - 1);
    this.#partBytes--;
    return true;
  }
}
