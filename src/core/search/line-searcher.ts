import { ToolError } from "../errors.js";
import { bomOf, charBoundary, charStart, decodeText } from "../text/decode.js";
import { LF, lineEnd, splitLines } from "../text/lines.js";
import { type SyncChunkSource, SyncChunks } from "../text/reader.js";
import type { Matcher } from "./matcher.js";

/** Read size; a NUL byte in a chunk marks the file binary from there on (as ripgrep's buffer does). */
const CHUNK = 64 * 1024;
/**
 * A line longer than this is searched in windows of this size that overlap by LONG_LINE_OVERLAP, so memory
 * stays bounded whatever the line length (a 1 GiB one-line file held the whole line). A match longer than
 * the overlap that straddles a window edge can be missed, and `^` can match at a window's start.
 */
const LONG_LINE = 1024 * 1024;
const LONG_LINE_OVERLAP = 16 * 1024;

/** What the line searcher hands its lines to (ripgrep's Sink); each call returns true to stop the search. */
export interface LineSink {
  /** Lines of context wanted before a hit. */
  readonly before: number;
  /** Whether every line of the next block is wanted, matching or not (a hit waits for lines after it). */
  readonly waiting: boolean;
  /** Whether the line being read has its hit already (from a window of it): it is not matched again. */
  readonly lineHit: boolean;
  /** A whole line, in order; `col` is where its match starts, -1 for none. */
  line(no: number, text: string, col: number): boolean;
  /** A match in a window of line `no`, too long to hold whole; the line's end comes later through `line`. */
  windowHit(no: number, text: string, col: number): boolean;
  /** A line of a block without a match, given only as possible context before a later hit. */
  context(no: number, text: string): void;
}

/** Finds the lines of one file that match, block by block, and hands the sink the lines it wants. */
export class LineSearcher {
  private lineNo = 0;

  constructor(
    private readonly m: Matcher,
    private readonly sink: LineSink,
  ) {}

  /** Whole lines (only the file's last block may lack the final line break). */
  block(buf: Buffer, final: boolean): boolean {
    let decoded: string | undefined;
    const text = () => {
      decoded ??= decodeText(buf, "utf-8", "");
      return decoded;
    };
    if (!this.sink.waiting && !this.m.region(buf, text)) {
      this.skip(buf, final);
      return false;
    }
    const { sink, m } = this;
    for (const s of splitLines(text())) {
      const col = sink.lineHit ? -1 : m.line(s);
      if (sink.line(++this.lineNo, s, col)) return true;
    }
    return false;
  }

  /** A window of a line too long to hold whole (the next line's number is still to come). */
  window(buf: Buffer): boolean {
    if (this.sink.lineHit) return false;
    let decoded: string | undefined;
    // A window is cut at a byte count: a character cut at its edges is dropped.
    const whole = buf.subarray(charStart(buf, 0), charBoundary(buf));
    const text = () => {
      decoded ??= decodeText(whole, "utf-8", "");
      return decoded;
    };
    // The cheap filter first: a literal is looked for in the bytes, without decoding the window.
    const col = this.m.region(buf, text) ? this.m.line(text()) : -1;
    return col >= 0 && this.sink.windowHit(this.lineNo + 1, text(), col);
  }

  /** Lines without a match: counted, only the last few decoded as context before a later hit. */
  private skip(buf: Buffer, final: boolean): void {
    const base = this.lineNo;
    let count = 0;
    for (let i = lineEnd(buf, 0); i !== -1; i = lineEnd(buf, i + 1)) count++;
    if (final && buf.length > 0 && buf[buf.length - 1] !== LF) count++;
    this.lineNo += count;
    const want = this.sink.before;
    if (want === 0) return;
    const tailStart = Math.max(0, count - want);
    const lines = splitLines(
      decodeText(buf.subarray(lastLinesOffset(buf, count - tailStart, final)), "utf-8", ""),
    );
    for (let k = 0; k < lines.length; k++) this.sink.context(base + tailStart + k + 1, lines[k]!);
  }
}

/**
 * Reads an open file (or a decoded one's chunks, `DecodedChunks`) chunk by chunk into the searcher (memory
 * stays flat whatever its size), calling `pace` between chunks: blocks of whole lines, or windows of a line too long to hold. "binary" when a NUL byte
 * shows up (unless `explicit`: a file asked for by name is searched whole), "stopped" when the sink said so,
 * "wide" for a UTF-16/32 BOM and "not-utf8" at bytes that are not UTF-8 (the caller decides what to decode).
 */
export async function searchFd(
  fd: number | SyncChunkSource,
  searcher: LineSearcher,
  explicit: boolean,
  pace: () => Promise<void>,
): Promise<"done" | "stopped" | "binary" | "binary-at-once" | "not-utf8" | "wide"> {
  try {
    return await searchChunks(
      typeof fd === "number" ? new SyncChunks(fd, CHUNK) : fd,
      searcher,
      explicit,
      pace,
    );
  } catch (err) {
    // Bytes that are not UTF-8 text are never shown as such (the reads' decode policy): without an encoding
    // to read them in, the file is binary from there on, as at a NUL byte, and what was searched before stands.
    if (err instanceof ToolError && err.kind === "not_utf8") return "not-utf8";
    throw err;
  }
}

async function searchChunks(
  chunks: SyncChunkSource,
  searcher: LineSearcher,
  explicit: boolean,
  pace: () => Promise<void>,
): Promise<"done" | "stopped" | "binary" | "binary-at-once" | "wide"> {
  // One read buffer per file, and the unfinished line kept in one buffer that grows to a window at most:
  // a buffer per read of a 1 GiB file was 1 GiB of garbage, and its collection lagged by tens of MiB.
  let held = Buffer.allocUnsafe(0);
  let carried = 0;
  const keep = (b: Buffer) => {
    if (carried + b.length > held.length) {
      const next = Buffer.allocUnsafe(Math.max(2 * held.length, carried + b.length));
      held.copy(next, 0, 0, carried);
      held = next;
    }
    b.copy(held, carried);
    carried += b.length;
  };
  for (let first = true; ; first = false) {
    await pace();
    const chunk = chunks.next();
    if (chunk === undefined) break;
    // UTF-16/32 with a BOM is text in another form (its NUL bytes do not make it binary): the caller decodes it.
    if (first && isWide(chunk)) return "wide";
    if (!explicit && chunk.indexOf(0) !== -1) return first ? "binary-at-once" : "binary";
    const nl = chunk.lastIndexOf(LF);
    if (nl === -1) {
      keep(chunk);
      if (carried > LONG_LINE) {
        // A window of a long line: searched now, only its last bytes carried on to the next window.
        if (searcher.window(held.subarray(0, carried))) return "stopped";
        held.copyWithin(0, carried - LONG_LINE_OVERLAP, carried);
        carried = LONG_LINE_OVERLAP;
      }
      continue;
    }
    let data = chunk;
    if (carried > 0) {
      keep(chunk);
      data = held.subarray(0, carried);
    }
    const upTo = data.length - (chunk.length - nl - 1);
    if (searcher.block(data.subarray(0, upTo), false)) return "stopped";
    // The rest of the last line is kept for the next read (the read buffer is reused).
    if (data === chunk) {
      carried = 0;
      keep(chunk.subarray(upTo));
    } else {
      held.copyWithin(0, upTo, carried);
      carried -= upTo;
    }
  }
  if (carried > 0 && searcher.block(held.subarray(0, carried), true)) return "stopped";
  return "done";
}

function isWide(head: Buffer): boolean {
  const bom = bomOf(head);
  return bom !== undefined && bom.name !== "utf-8";
}

/** Byte offset where the last `k` lines of a block start. */
function lastLinesOffset(buf: Buffer, k: number, final: boolean): number {
  if (k <= 0) return buf.length;
  let end = buf.length;
  if (!final || buf[buf.length - 1] === LF) end -= 1;
  let seen = 0;
  for (let i = end - 1; i >= 0; i--) {
    if (buf[i] === LF && ++seen === k) return i + 1;
  }
  return 0;
}
