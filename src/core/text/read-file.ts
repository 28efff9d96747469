/** Reads of a file by path, through the verified open: whole, head, tail and line ranges, with the state of the version read. */
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import {
  openVerified,
  openVerifiedFile,
  type ReadAt,
  readBytesAt,
  type VerifiedFile,
} from "../fs/safe-open.js";
import type { ResolvedPath } from "../workspace.js";
import {
  bomOf,
  charBoundary,
  type Decoding,
  decodingFor,
  explained,
  guessEncodings,
  SAMPLE_BYTES,
  TextCheck,
} from "./decode.js";
import { CHEAP_HASH_LIMIT, type ReadState, stateOfHandle } from "./file-hash.js";
import { type Line, linesOf } from "./lines.js";
import { SyncChunks } from "./reader.js";
import { countLinesFrom, headLines, type RangeRead, rangeLines, tailLines, wholeText } from "./shapes.js";

export interface TextRead {
  /** Whole reads: the text as in the file; head/tail: the lines joined with "\n". */
  text: string;
  /** Head/tail: the lines returned (those of `text`). */
  lines?: string[];
  /** Size of the file in bytes. */
  size: number;
  /** The reply was cut to fit the output budget. */
  truncated: boolean;
  /** For head/tail: whether the file has lines beyond those returned. */
  more?: boolean;
  /**
   * For head/tail: the only line returned is longer than the budget and was cut to it (head: its start,
   * tail: its end), while streaming.
   */
  cutLine?: boolean;
  /** sha256 of the file's bytes, when the whole file was read. */
  sha256?: string;
  /** Last modification time of the file read (ms since the epoch). */
  mtimeMs?: number;
  /**
   * When asked for: mtime and size; sha256 and line count for a whole read (computed as it streams), and for
   * head/tail when the file is small (CHEAP_HASH_LIMIT) or `hash` was set.
   */
  state?: ReadState;
}

export interface TextReadOptions {
  head?: number;
  tail?: number;
  /** Upper bound on the bytes of text returned. */
  budget: number;
  /** Also return the file's state (hash of the version read, mtime, line count). */
  withState?: boolean;
  /** With `withState`: hash (and count) the whole file even for head/tail of a large file. */
  hash?: boolean;
  /** With `withState`: count the file's lines even when not hashing (tail with line numbers needs it). */
  countLines?: boolean;
  /** The encoding of a file that is not UTF-8 (the caller's `encoding` or `--default-encoding`). */
  encoding?: string;
}

function checkCount(name: string, n: number | undefined, requested: string): void {
  if (n === undefined) return;
  if (!Number.isInteger(n) || n <= 0)
    throw new ToolError("invalid", { reason: "line_count", path: requested, parameter: name, actual: n });
}

/**
 * Runs `read` under the decode policy: with the file's decoding found first (`named`: the caller's encoding,
 * or undefined for none; `false`: try UTF-8 first), else read as UTF-8 and, on the first bytes that are not
 * UTF-8, found then (a UTF-16/32 BOM, or the refusal naming the likely encodings) and read again.
 */
async function withDecoding<T>(
  fh: ReadAt,
  requested: string,
  named: string | undefined | false,
  read: (decoding: Decoding | undefined) => Promise<T>,
): Promise<T> {
  if (named !== false) return read(await decodingOf(fh, requested, named));
  try {
    return await read(undefined);
  } catch (err) {
    if (!(err instanceof ToolError) || err.kind !== "not_utf8") throw err;
    const decoding = await decodingOf(fh, requested, undefined);
    if (decoding.codec.bytewise) throw err;
    return read(decoding);
  }
}

/** Reads a text file whole or its first/last lines, never returning more than `budget` bytes. */
export async function readTextFile(target: ResolvedPath, opts: TextReadOptions): Promise<TextRead> {
  if (opts.head !== undefined && opts.tail !== undefined)
    throw new ToolError("invalid", { reason: "head_and_tail" });
  checkCount("head", opts.head, target.requested);
  checkCount("tail", opts.tail, target.requested);
  // The status comes with the verified descriptor (a FIFO is refused there, never waited for).
  const { fh, st } = await openVerifiedFile(target);
  try {
    if (st.isDirectory()) throw new ToolError("not_file", { path: target.requested });
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    // A read from line 1 needs no sniff of the BOM first: a UTF-16/32 BOM is never valid UTF-8, so such a
    // file fails its first line, and is then read as its BOM says (a UTF-8 read skips a pread: ~10 µs).
    const sniff = opts.encoding !== undefined || opts.tail !== undefined;
    return await withDecoding(fh, target.requested, sniff ? opts.encoding : false, (decoding) =>
      decoding && !decoding.codec.bytewise
        ? wideRead(fh, target.requested, decoding, Number(st.size), Number(st.mtimeMs), opts)
        : readShapes(fh, st, target.requested, opts, decoding?.plain ? undefined : decoding),
    );
  } catch (err) {
    throw await explainedBy(fh, err, target.requested);
  } finally {
    await fh.close();
  }
}

/** `readTextFile`'s shapes over a file read as UTF-8 or through `decoding`. */
async function readShapes(
  fh: VerifiedFile["fh"],
  st: VerifiedFile["st"],
  requested: string,
  opts: TextReadOptions,
  decoding: Decoding | undefined,
): Promise<TextRead> {
  const size = Number(st.size);
  const mtimeMs = Number(st.mtimeMs);
  let result: TextRead;
  if (opts.head !== undefined || opts.tail !== undefined) {
    // Memory bounded by the budget whatever the line length: the read stops once it holds that much.
    const r =
      opts.head !== undefined
        ? await headLines(fh, requested, opts.head, opts.budget, decoding)
        : await tailLines(fh, requested, opts.tail!, size, opts.budget, decoding);
    const texts = r.lines.map((l) => l.text);
    result = {
      ...fitLines(texts, size, r.more, opts.budget, opts.tail !== undefined, r.partial),
      mtimeMs,
    };
  } else {
    const r = await wholeText(fh, requested, opts.budget, size, decoding);
    result = { text: r.text, size: r.size, truncated: r.truncated, sha256: r.sha256, mtimeMs };
    if (opts.withState && r.sha256 !== undefined) {
      // The hash and count came with the read and are of the bytes returned. If a writer raced the read,
      // that hash matches no version of the file, so a change based on it is refused: the safe side.
      result.state = {
        sha256: r.sha256,
        mtime: new Date(mtimeMs).toISOString(),
        size,
        totalLines: r.totalLines,
      };
      return result;
    }
  }
  if (opts.withState) {
    const whole = opts.hash === true || size <= CHEAP_HASH_LIMIT;
    result.state = await stateOfHandle(fh, {
      hash: whole,
      countLines: whole || opts.countLines === true,
      since: st,
    });
  }
  return result;
}

/** The read's decode policy, from the file's first bytes (its BOM) and the caller's encoding. */
async function decodingOf(fh: ReadAt, requested: string, encoding: string | undefined): Promise<Decoding> {
  const head = Buffer.alloc(4);
  const { bytesRead } = await fh.read(head, 0, 4, 0);
  return decodingFor(head.subarray(0, bytesRead), requested, encoding);
}

/** A `not_utf8` refusal with the guess of the file's encoding (from its first `SAMPLE_BYTES`). */
async function explainedBy(fh: ReadAt, err: unknown, requested: string): Promise<unknown> {
  if (!(err instanceof ToolError) || err.kind !== "not_utf8") return err;
  const sample = Buffer.alloc(SAMPLE_BYTES);
  const { bytesRead } = await fh.read(sample, 0, sample.length, 0);
  return explained(err, sample.subarray(0, bytesRead), requested);
}

/**
 * UTF-16 and UTF-32 files are decoded whole (a byte 0x0A is not a line break there), then cut into lines by
 * the one line model; memory is bounded by this size instead of the budget.
 */
const WIDE_LIMIT = 64 * 1024 * 1024;

/** A UTF-16/32 file's text (without its BOM), lines, hash and line count. */
async function wideText(fh: ReadAt, requested: string, decoding: Decoding, size: number) {
  if (size > WIDE_LIMIT)
    throw new ToolError("too_large", {
      reason: "read_wide",
      path: requested,
      name: decoding.codec.name,
      actual: size,
      limit: WIDE_LIMIT,
    });
  const data = await readBytesAt(fh, size);
  const decoded = decoding.decode(data);
  const text = decoded.startsWith("\uFEFF") ? decoded.slice(1) : decoded;
  const sha256 = createHash("sha256").update(data).digest("hex");
  return { text, lines: linesOf(text), sha256, size: data.length };
}

/** `readTextFile` of a UTF-16/32 file: the same shapes over its decoded lines. */
async function wideRead(
  fh: ReadAt,
  requested: string,
  decoding: Decoding,
  size: number,
  mtimeMs: number,
  opts: TextReadOptions,
): Promise<TextRead> {
  const w = await wideText(fh, requested, decoding, size);
  const state = opts.withState
    ? { sha256: w.sha256, mtime: new Date(mtimeMs).toISOString(), size: w.size, totalLines: w.lines.length }
    : undefined;
  const withState = (r: TextRead): TextRead => ({ ...r, mtimeMs, ...(state ? { state } : {}) });
  if (opts.head !== undefined || opts.tail !== undefined) {
    const n = opts.head ?? opts.tail!;
    const picked =
      opts.head !== undefined ? w.lines.slice(0, n) : w.lines.slice(Math.max(0, w.lines.length - n));
    const texts = picked.map((l) => l.text);
    return withState(
      fitLines(texts, w.size, picked.length < w.lines.length, opts.budget, opts.tail !== undefined),
    );
  }
  if (Buffer.byteLength(w.text) <= opts.budget)
    return withState({ text: w.text, size: w.size, truncated: false, sha256: w.sha256 });
  const cut = Buffer.from(w.text).subarray(0, opts.budget);
  return withState({ text: cut.toString("utf8", 0, charBoundary(cut)), size: w.size, truncated: true });
}

/**
 * Joins lines with `\n`; if that exceeds the budget, keeps whole lines from the start (or the end for tail).
 * A first line (last, for tail) longer than the budget is cut to it — its start for head, its end for tail —
 * and flagged `cutLine`. `partial`: the line at the far edge is a piece (the read stopped at the budget).
 */
function fitLines(
  all: string[],
  size: number,
  more: boolean,
  budget: number,
  fromEnd: boolean,
  partial = false,
): TextRead {
  const lines = partial && all.length > 1 ? (fromEnd ? all.slice(1) : all.slice(0, -1)) : all;
  const text = lines.join("\n");
  if (!partial && Buffer.byteLength(text) <= budget) return { text, lines, size, truncated: false, more };
  const kept: string[] = [];
  let bytes = 0;
  const order = fromEnd ? [...lines].reverse() : lines;
  for (const line of order) {
    const b = Buffer.byteLength(line) + 1;
    if (bytes + b > budget) break;
    kept.push(line);
    bytes += b;
  }
  const cutOnly = kept.length === 0 || (partial && all.length === 1);
  if (cutOnly && lines.length > 0) {
    const raw = Buffer.from(lines[fromEnd ? lines.length - 1 : 0]!);
    let from = fromEnd ? Math.max(0, raw.length - budget) : 0;
    while (fromEnd && from < raw.length && (raw[from]! & 0xc0) === 0x80) from++;
    const piece = fromEnd ? raw.subarray(from) : raw.subarray(0, Math.min(raw.length, budget));
    const textCut = piece.toString("utf8", 0, fromEnd ? piece.length : charBoundary(piece));
    return { text: textCut, lines: [textCut], size, truncated: true, more: true, cutLine: true };
  }
  if (fromEnd) kept.reverse();
  return { text: kept.join("\n"), lines: kept, size, truncated: true, more: true };
}

export interface RangeWithState extends RangeRead {
  /**
   * mtime and size of the version read; its sha256 when the file is small (CHEAP_HASH_LIMIT), `hash` was
   * asked, or the read streamed the whole file; its line count unless that needs more than
   * COUNT_REST_LIMIT bytes past the range.
   */
  state?: ReadState;
}

/** Lines after a range are counted (for "of N") when at most this many bytes follow it: ~1 ms here. */
const COUNT_REST_LIMIT = 4 * 1024 * 1024;

/**
 * Lines `start..end` (1-based, inclusive; `end` omitted = to the end) of a text file, streamed, with the
 * state of the same version (retried if the file changes while it is hashed): the one range read of both
 * surfaces. Throws ToolError `not_found`, `not_file`, or the decode policy's `not_utf8`.
 */
export async function readLineRange(
  target: ResolvedPath,
  opts: { start: number; end?: number; maxBytes: number; hash?: boolean; encoding?: string },
): Promise<RangeWithState> {
  if (!target.exists) throw new ToolError("not_found", { reason: "file", path: target.requested });
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // From line 1 no BOM sniff first (see readTextFile): a UTF-16/32 file fails its first line as UTF-8.
    const sniff = opts.encoding !== undefined || opts.start > 1;
    return await withDecoding(fh, target.requested, sniff ? opts.encoding : false, async (decoding) =>
      decoding && !decoding.codec.bytewise
        ? wideRange(fh, target.requested, decoding, await fh.stat({ bigint: true }), opts)
        : rangeWithState(fh, target.requested, opts, decoding?.plain ? undefined : decoding),
    );
  } catch (err) {
    throw await explainedBy(fh, err, target.requested);
  } finally {
    await fh.close();
  }
}

/** Lines of a range read as UTF-8 or through `decoding`, with the state of the version read (retried). */
async function rangeWithState(
  fh: VerifiedFile["fh"],
  requested: string,
  opts: { start: number; end?: number; maxBytes: number; hash?: boolean },
  decoding: Decoding | undefined,
): Promise<RangeWithState> {
  for (let attempt = 0; ; attempt++) {
    const since = await fh.stat({ bigint: true });
    if (!since.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: requested });
    const size = Number(since.size);
    const cheap = opts.hash === true || size <= CHEAP_HASH_LIMIT;
    // From line 1, the hash streams with the read: a read that reaches the end needs no second pass.
    const hash = opts.start === 1 ? createHash("sha256") : undefined;
    const r = await rangeLines(fh, requested, opts.start, opts.end, {
      maxBytes: opts.maxBytes,
      hash,
      decoding,
      size,
    });
    const mtime = new Date(Number(since.mtimeMs)).toISOString();
    // The hash is of the bytes returned: if a writer raced the read, it matches no version, so a change
    // based on it is refused (the safe side).
    if (r.sha256 !== undefined)
      return { ...r, state: { sha256: r.sha256, mtime, size, totalLines: r.stop.lines } };
    let state: ReadState | undefined;
    if (cheap) state = await stateOfHandle(fh, { hash: true, countLines: true, since });
    else {
      const rest = size - r.stop.offset;
      const total = !r.more
        ? r.stop.lines
        : rest <= COUNT_REST_LIMIT
          ? r.stop.lines + (await countLinesFrom(fh, r.stop.offset))
          : undefined;
      state = await stateOfHandle(fh, { hash: false, countLines: false, since });
      if (state && total !== undefined) state.totalLines = total;
    }
    if (state || attempt === 2) return { ...r, state };
  }
}

/** `readLineRange` of a UTF-16/32 file: lines start..end of its decoded lines, kept within `maxBytes`. */
async function wideRange(
  fh: ReadAt,
  requested: string,
  decoding: Decoding,
  since: { size: bigint; mtimeMs: bigint },
  opts: { start: number; end?: number; maxBytes: number },
): Promise<RangeWithState> {
  const w = await wideText(fh, requested, decoding, Number(since.size));
  const total = w.lines.length;
  const state = {
    sha256: w.sha256,
    mtime: new Date(Number(since.mtimeMs)).toISOString(),
    size: w.size,
    totalLines: total,
  };
  const want = w.lines.slice(opts.start - 1, opts.end ?? total);
  const lines: Line[] = [];
  let bytes = 0;
  for (const l of want) {
    const b = Buffer.byteLength(l.text) + 1;
    if (bytes + b > opts.maxBytes) break;
    lines.push(l);
    bytes += b;
  }
  const last = opts.start - 1 + lines.length;
  const stop = { offset: w.size, lines: last };
  if (lines.length === want.length)
    return { lines, more: last < total, truncated: false, stop, sha256: w.sha256, state };
  if (lines.length > 0) return { lines, more: true, truncated: true, stop, state };
  // The first line alone is longer than the budget: its start, cut at a character.
  const raw = Buffer.from(want[0]!.text).subarray(0, opts.maxBytes);
  const text = raw.toString("utf8", 0, charBoundary(raw));
  return { lines: [{ text, eol: "" }], more: true, truncated: true, cutLine: true, stop, state };
}

/** The shown texts of lines. */
export const textsOf = (lines: readonly Line[]): string[] => lines.map((l) => l.text);

/**
 * The encoding of the regular file open at `fd` (of `size` bytes) as reads decode it, judged from its first
 * `SAMPLE_BYTES`: its BOM's ("utf-16le with BOM"), "utf-8", or chardet's first guess followed by " (guess)";
 * undefined for binary bytes (or an empty guess). One read, synchronous as grep's are (`SyncChunks`): a
 * thread-pool round trip cost ~40 µs of server CPU per `get_file_info` here, the read of a cached 4 KiB
 * file 2 µs. chardet loads only for bytes that are not UTF-8.
 */
export async function encodingOfOpen(fd: number, size: number): Promise<string | undefined> {
  const want = Math.min(SAMPLE_BYTES, size);
  const head = want > 0 ? (new SyncChunks(fd, want, 0).next() ?? Buffer.alloc(0)) : Buffer.alloc(0);
  const bom = bomOf(head);
  if (bom) return `${bom.name} with BOM`;
  if (new TextCheck().push(head).ok(head.length >= size)) return "utf-8";
  const [guess] = await guessEncodings(head);
  return guess === undefined ? undefined : `${guess} (guess)`;
}
