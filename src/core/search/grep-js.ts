import fs from "node:fs";
import path from "node:path";
import { openVerifiedSync } from "../fs/safe-open.js";
import type { Root } from "../root.js";
import { type Codec, decodingFor } from "../text/decode.js";
import { DecodedChunks, Utf8Chunks } from "../text/reader.js";
import { cancelledError, STOP, type WalkEachOptions, walkEach } from "../walk.js";
import { compileGlobs } from "./globs.js";
import type { EngineJob, GrepMatch, GrepTarget, RawGrep } from "./grep-job.js";
import { HitSink } from "./hit-sink.js";
import { LineSearcher, searchFd } from "./line-searcher.js";
import { cutLine } from "./lines.js";
import { compileMatcher, type Matcher } from "./matcher.js";

/** The scan runs synchronously on Buffers (per-file async reads cost more than the search) and yields this often. */
const YIELD_EVERY_MS = 20;

/**
 * The files a grep job searches, in path order: the start itself when it is a file, else the walker's regular
 * files (ignore rules and globs applied). With `limit`, stops after that many; `more` is true exactly when the
 * walk stopped before seeing the whole scope, so a caller may trust `targets` as complete when it is false.
 */
export async function listTargets(
  job: EngineJob,
  limit?: number,
): Promise<{ targets: GrepTarget[]; more: boolean; ignored: number }> {
  const { start } = job;
  if (fs.statSync(start).isFile())
    return { targets: [{ rel: path.basename(start), real: start }], more: false, ignored: 0 };
  const globs = compileGlobs(job.globs);
  const targets: GrepTarget[] = [];
  // Only regular files count toward the limit: symlinks, sockets and folders are not searched.
  const stats = await walkEach<undefined>(walkOf(job, globs), (name, rel, type, _depth, dirAbs) => {
    if (type !== "file" || (globs && !globs.file(rel))) return undefined;
    if (limit !== undefined && targets.length >= limit) return STOP;
    targets.push({ rel, real: dirAbs === start ? path.join(start, name) : `${dirAbs}/${name}` });
    return undefined;
  });
  targets.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { targets, more: stats.stopped || stats.timedOut, ignored: stats.ignored };
}

/** The walk of a grep job's scope: its ignore rules, and folders its globs rule out pruned. */
function walkOf(job: EngineJob, globs: ReturnType<typeof compileGlobs>): WalkEachOptions {
  return {
    root: job.root,
    start: job.start,
    gitignore: job.gitignore,
    includeIgnored: job.includeIgnored,
    exclude: globs ? (rel, isDir) => isDir && globs.prunes(rel) : undefined,
    signal: job.signal,
  };
}

/**
 * How many entries the ignore rules leave out of a grep job's scope (an ignored folder counts once), for
 * an engine that does not walk with the walker (ripgrep): the same walk as `listTargets`, without a visitor.
 */
export async function countIgnored(job: EngineJob): Promise<number> {
  if (!job.gitignore || job.includeIgnored || fs.statSync(job.start).isFile()) return 0;
  return (await walkEach<undefined>(walkOf(job, compileGlobs(job.globs)), () => undefined)).ignored;
}

/** The pure-TS engine: the walker's file list (or `given`), scanned in path order with ripgrep's rules. */
export async function grepWithJs(
  job: EngineJob,
  given?: GrepTarget[],
): Promise<RawGrep & { ignored: number }> {
  const matcher = compileMatcher(job.pattern, job.literal === true, job.caseSensitive !== false);
  const listed = given ? { targets: given, ignored: 0 } : await listTargets(job);
  const { targets, ignored } = listed;
  // A file asked for by name is searched whole, NUL bytes and all, as ripgrep searches a path it is given.
  const explicit = fs.statSync(job.start).isFile();
  const ctx = job.filesOnly ? 0 : Math.max(0, job.contextLines ?? 0);
  const matches: GrepMatch[] = [];
  const files: string[] = [];
  const pace = pacer(job.signal);
  const cut = job.formatLine ?? cutLine;
  for (const t of targets) {
    await pace();
    const sink = () => new HitSink(t.rel, ctx, cut, job.filesOnly === true);
    const hits = await scanFile(job.root, t, matcher, { sink, pace, explicit, encoding: job.encoding });
    if (!hits || hits.length === 0) continue;
    files.push(t.rel);
    matches.push(...hits);
    if ((job.filesOnly ? files.length : matches.length) >= job.collectCap) {
      return { matches, files, capped: true, ignored };
    }
  }
  return { matches, files, capped: false, ignored };
}

/**
 * Yields to the event loop once per YIELD_EVERY_MS of synchronous scanning and then throws if the request was
 * cancelled: the abort (a client's notifications/cancelled) can only arrive while the loop turns, so without
 * this a large file would be scanned to its end after the client gave up, blocking every other session too.
 */
function pacer(signal: AbortSignal | undefined): () => Promise<void> {
  let last = Date.now();
  return async () => {
    if (signal?.aborted) throw cancelledError();
    if (Date.now() - last <= YIELD_EVERY_MS) return;
    await new Promise((r) => setImmediate(r));
    if (signal?.aborted) throw cancelledError();
    last = Date.now();
  };
}

interface Scan {
  /** A new sink for the file's hits (a file read again in its encoding starts from none). */
  sink: () => HitSink;
  pace: () => Promise<void>;
  explicit: boolean;
  /** The decode policy's encoding for a file that is not UTF-8 (GrepOptions.encoding). */
  encoding: string | undefined;
}

/**
 * Searches one file, opened through the reads' verified open, into a sink of its hits. Undefined for an
 * unreadable file or a binary one (a NUL byte in the first chunk), unless `explicit`. A file with a UTF-16/32
 * BOM, or not UTF-8 when an encoding is given, is decoded as the reads decode it and searched as that text.
 */
async function scanFile(root: Root, { real, rel }: GrepTarget, m: Matcher, scan: Scan) {
  let fd: number;
  let size: number;
  try {
    // A folder on the way swapped for a symlink since the walk is refused.
    const opened = openVerifiedSync({ requested: rel, real, root });
    fd = opened.fd;
    size = Number(opened.st.size);
    if (!opened.st.isFile()) {
      fs.closeSync(fd);
      return undefined;
    }
  } catch {
    return undefined;
  }
  try {
    const sink = scan.sink();
    // With an encoding to fall back on, every chunk is checked, even where no line is decoded.
    const source = scan.encoding === undefined ? fd : new Utf8Chunks(fd, rel);
    // Binary: skipped when seen at once; otherwise what was searched before stands (as ripgrep does).
    const end = await searchFd(source, new LineSearcher(m, sink), scan.explicit, scan.pace);
    // Not UTF-8 with an encoding to read it in, or UTF-16/32: searched again as the reads decode it.
    const decode = end === "wide" || (end === "not-utf8" && scan.encoding !== undefined);
    if (decode) return size <= DECODE_LIMIT ? await scanDecoded(fd, rel, m, scan) : undefined;
    return end === "binary-at-once" ? undefined : sink.hits;
  } finally {
    fs.closeSync(fd);
  }
}

/** Above this a file in another encoding is not decoded whole to be searched (the reads' own limit). */
const DECODE_LIMIT = 64 * 1024 * 1024;

/**
 * The file as the reads decode it, searched as that text: in its BOM's encoding, else (its bytes are not
 * UTF-8) in `scan.encoding`. Decoded chunk by chunk between the searcher's paces (`DecodedChunks`), so no
 * decode holds the event loop. Undefined when it is binary or not valid in that encoding (not searched, as
 * a read would refuse it).
 */
async function scanDecoded(fd: number, rel: string, m: Matcher, scan: Scan) {
  const head = Buffer.alloc(4);
  const n = fs.readSync(fd, head, 0, 4, 0);
  let codec: Codec;
  try {
    const decoding = await decodingFor(head.subarray(0, n), rel, scan.encoding);
    codec = decoding.fallback ?? decoding.codec;
  } catch {
    return undefined;
  }
  const sink = scan.sink();
  const chunks = new DecodedChunks(fd, codec, rel);
  const end = await searchFd(chunks, new LineSearcher(m, sink), scan.explicit, scan.pace);
  return end === "binary-at-once" || end === "not-utf8" ? undefined : sink.hits;
}
