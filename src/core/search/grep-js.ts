import fs from "node:fs";
import path from "node:path";
import { RE2JS } from "re2js";
import { ToolError } from "../errors.js";
import { openVerifiedSync } from "../files/safe-open.js";
import { LF, lineEnd, splitLines } from "../files/text-lines.js";
import { cancelledError, STOP, walkEach } from "../walk.js";
import type { Root } from "../workspace.js";
import { compileGlobs } from "./globs.js";
import type { EngineJob, GrepLine, GrepMatch, RawGrep } from "./grep.js";
import { cutLine } from "./lines.js";

/** Read size; a NUL byte in a chunk marks the file binary from there on (as ripgrep's buffer does). */
const CHUNK = 64 * 1024;
/**
 * A line longer than this is searched in windows of this size that overlap by LONG_LINE_OVERLAP, so memory
 * stays bounded whatever the line length (a 1 GiB one-line file held the whole line). A match longer than
 * the overlap that straddles a window edge can be missed, and `^` can match at a window's start.
 */
const LONG_LINE = 1024 * 1024;
const LONG_LINE_OVERLAP = 16 * 1024;
/** The scan runs synchronously on Buffers (per-file async reads cost more than the search) and yields this often. */
const YIELD_EVERY_MS = 20;

interface Matcher {
  /** Whether a block of whole lines may hold a match (a cheap filter before splitting lines). */
  region(buf: Buffer, text: () => string): boolean;
  /** Column of the first match in one line, or -1. */
  line(s: string): number;
}

const REGEX_META = /[\\^$.|?*+()[\]{}]/;

function compileMatcher(pattern: string, literal: boolean, caseSensitive: boolean): Matcher {
  if (literal || !REGEX_META.test(pattern)) {
    if (caseSensitive) {
      const bytes = Buffer.from(pattern);
      return { region: (b) => b.indexOf(bytes) !== -1, line: (s) => s.indexOf(pattern) };
    }
    // An escaped literal cannot backtrack, so the native engine is safe here.
    const re = new RegExp(pattern.replace(/[\\^$.|?*+()[\]{}/-]/g, "\\$&"), "iu");
    return { region: (_b, text) => re.test(text()), line: (s) => s.search(re) };
  }
  // User regexes run on RE2 (linear time): a pattern like (a+)+$ cannot hang the server.
  const flags = caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
  let one: RE2JS;
  let many: RE2JS;
  try {
    one = RE2JS.compile(pattern, flags);
    many = RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  } catch (err) {
    throw new ToolError(`Invalid regular expression: ${(err as Error).message}`);
  }
  return {
    region: (_b, text) => {
      const t = text();
      return many.matcher(t.includes("\r") ? t.replace(/\r\n/g, "\n") : t).find();
    },
    line: (s) => {
      const m = one.matcher(s);
      return m.find() ? m.start() : -1;
    },
  };
}

export interface GrepTarget {
  rel: string;
  real: string;
}

/**
 * The files a grep job searches, in path order: the start itself when it is a file, else the walker's regular
 * files (ignore rules and globs applied). With `limit`, stops after that many; `more` is true exactly when the
 * walk stopped before seeing the whole scope, so a caller may trust `targets` as complete when it is false.
 */
export async function listTargets(
  job: EngineJob,
  limit?: number,
): Promise<{ targets: GrepTarget[]; more: boolean }> {
  const { start } = job;
  if (fs.statSync(start).isFile())
    return { targets: [{ rel: path.basename(start), real: start }], more: false };
  const globs = compileGlobs(job.globs);
  const targets: GrepTarget[] = [];
  // Only regular files count toward the limit: symlinks, sockets and folders are not searched.
  const stats = await walkEach<undefined>(
    {
      root: job.root,
      start,
      gitignore: job.gitignore,
      exclude: globs ? (rel, isDir) => isDir && globs.prunes(rel) : undefined,
      signal: job.signal,
    },
    (name, rel, type, _depth, dirAbs) => {
      if (type !== "file" || (globs && !globs.file(rel))) return undefined;
      if (limit !== undefined && targets.length >= limit) return STOP;
      targets.push({ rel, real: dirAbs === start ? path.join(start, name) : `${dirAbs}/${name}` });
      return undefined;
    },
  );
  targets.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { targets, more: stats.stopped || stats.timedOut };
}

/** The pure-TS engine: the walker's file list (or `given`), scanned in path order with ripgrep's rules. */
export async function grepWithJs(job: EngineJob, given?: GrepTarget[]): Promise<RawGrep> {
  const matcher = compileMatcher(job.pattern, job.literal === true, job.caseSensitive !== false);
  const targets = given ?? (await listTargets(job)).targets;
  // A file asked for by name is searched whole, NUL bytes and all, as ripgrep searches a path it is given.
  const explicit = fs.statSync(job.start).isFile();
  const ctx = job.filesOnly ? 0 : Math.max(0, job.contextLines ?? 0);
  const matches: GrepMatch[] = [];
  const files: string[] = [];
  const pace = pacer(job.signal);
  const cut = job.formatLine ?? cutLine;
  for (const t of targets) {
    await pace();
    const hits = await scanFile(job.root, t, matcher, ctx, job.filesOnly === true, pace, cut, explicit);
    if (!hits || hits.length === 0) continue;
    files.push(t.rel);
    matches.push(...hits);
    if ((job.filesOnly ? files.length : matches.length) >= job.collectCap) {
      return { matches, files, capped: true };
    }
  }
  return { matches, files, capped: false };
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

/**
 * Scans one file chunk by chunk (memory stays flat whatever its size), calling `pace` between chunks.
 * Undefined for unreadable or binary (a NUL byte in the first chunk), unless `explicit`.
 */
async function scanFile(
  root: Root,
  { real, rel }: GrepTarget,
  m: Matcher,
  ctx: number,
  firstOnly: boolean,
  pace: () => Promise<void>,
  cut: (text: string, col: number) => string,
  explicit: boolean,
): Promise<GrepMatch[] | undefined> {
  let fd: number;
  try {
    // The reads' verified open: a folder on the way swapped for a symlink since the walk is refused.
    const target = {
      requested: rel,
      real,
      root,
      exists: true,
      relative: path.relative(root.real, real).split(path.sep).join("/"),
    };
    fd = openVerifiedSync(target, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const out: GrepMatch[] = [];
    const ring: GrepLine[] = [];
    const pending: GrepMatch[] = [];
    let lineNo = 0;
    // The current (long) line already matched in one of its windows: one hit per line.
    let longHit: GrepMatch | undefined;
    let first = true;

    const lineOut = (s: string) => {
      lineNo++;
      if (pending.length > 0) {
        for (const p of pending) p.after.push({ line: lineNo, text: cut(s, 0) });
        while (pending.length > 0 && pending[0]!.line + ctx <= lineNo) pending.shift();
      }
      const col = longHit ? -1 : m.line(s);
      // A long line's hit takes its after-context from the lines after it, like any other hit.
      if (longHit && ctx > 0) pending.push(longHit);
      longHit = undefined;
      if (col >= 0) {
        const hit: GrepMatch = {
          path: rel,
          line: lineNo,
          text: cut(s, col),
          before: [...ring],
          after: [],
        };
        out.push(hit);
        if (ctx > 0) pending.push(hit);
      }
      if (ctx > 0) {
        ring.push({ line: lineNo, text: cut(s, 0) });
        if (ring.length > ctx) ring.shift();
      }
    };

    const region = (buf: Buffer, final: boolean): boolean => {
      let decoded: string | undefined;
      const text = () => {
        decoded ??= buf.toString("utf8");
        return decoded;
      };
      if (pending.length === 0 && !longHit && !m.region(buf, text)) {
        skipLines(buf, final);
        return false;
      }
      // Before the end of the file a region ends with a line break, so the splitter sees whole lines.
      for (const p of splitLines(text())) {
        lineOut(p);
        if (firstOnly && out.length > 0) return true;
      }
      return false;
    };

    // Lines without a match: count them, keeping only the last few for before-context.
    const skipLines = (buf: Buffer, final: boolean) => {
      const base = lineNo;
      let count = 0;
      for (let i = lineEnd(buf, 0); i !== -1; i = lineEnd(buf, i + 1)) count++;
      if (final && buf.length > 0 && buf[buf.length - 1] !== LF) count++;
      lineNo += count;
      if (ctx === 0) return;
      const tailStart = Math.max(0, count - ctx);
      const lines = splitLines(buf.toString("utf8", lastLinesOffset(buf, count - tailStart, final)));
      for (let k = 0; k < lines.length; k++) {
        ring.push({ line: base + tailStart + k + 1, text: cut(lines[k]!, 0) });
        if (ring.length > ctx) ring.shift();
      }
    };

    // One read buffer per file, and the unfinished line kept in one buffer that grows to a window at most:
    // a buffer per read of a 1 GiB file was 1 GiB of garbage, and its collection lagged by tens of MiB.
    const buf = Buffer.allocUnsafe(CHUNK);
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
    for (;;) {
      await pace();
      const n = fs.readSync(fd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const chunk = n < CHUNK ? buf.subarray(0, n) : buf;
      if (!explicit && chunk.indexOf(0) !== -1) {
        // Binary: skipped when seen at once; otherwise what was searched before stands (as ripgrep does).
        return first ? undefined : out;
      }
      first = false;
      const nl = chunk.lastIndexOf(LF);
      if (nl === -1) {
        keep(chunk);
        if (carried > LONG_LINE) {
          // A window of a long line: searched now, only its last bytes carried on to the next window.
          const window = held.subarray(0, carried);
          if (!longHit) {
            let decoded: string | undefined;
            const text = () => {
              decoded ??= window.toString("utf8");
              return decoded;
            };
            // The cheap filter first: a literal is looked for in the bytes, without decoding the window.
            const col = m.region(window, text) ? m.line(text()) : -1;
            if (col >= 0) {
              longHit = { path: rel, line: lineNo + 1, text: cut(text(), col), before: [...ring], after: [] };
              out.push(longHit);
              if (firstOnly) return out;
            }
          }
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
      if (region(data.subarray(0, upTo), false)) return out;
      // The rest of the last line is kept for the next read (the read buffer is reused).
      if (data === chunk) {
        carried = 0;
        keep(chunk.subarray(upTo));
      } else {
        held.copyWithin(0, upTo, carried);
        carried -= upTo;
      }
    }
    if (carried > 0) region(held.subarray(0, carried), true);
    return out;
  } finally {
    fs.closeSync(fd);
  }
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
