import fs, { type Dirent } from "node:fs";
import path from "node:path";
import { ToolError } from "./errors.js";
import { TEMP_NAME } from "./files/safe-open.js";
import { ancestorLevels, type IgnoreLevel, isIgnoredStart, levelsForDir } from "./ignore.js";
import { isGitDirName } from "./paths.js";
import { namesOf, type Root } from "./workspace.js";

export interface WalkOptions {
  /** Confinement root (from a ResolvedPath). */
  root: Root;
  /** Real path of the directory to walk (inside root). */
  start: string;
  /** Honour .gitignore at every level + .git/info/exclude; skip .git/. */
  gitignore: boolean;
  /** 1 = direct children only; undefined = unlimited. */
  maxDepth?: number;
  /** Prune: excluded dirs are not descended into. */
  exclude?: (rel: string, isDir: boolean) => boolean;
  /** Which entries are returned (default all). */
  include?: (rel: string, isDir: boolean) => boolean;
  /** Stop after this many returned entries (result.truncated = true). */
  limit?: number;
  /** Cancellation (throws ToolError code "cancelled"). */
  signal?: AbortSignal;
  /** Stop early (result.timedOut = true). */
  timeLimitMs?: number;
  onProgress?: (visited: number) => void;
  /**
   * Read directories roughly level by level (default: deepest first, which keeps the queue short). A
   * caller that can stop caring below some depth learns that depth early this way.
   */
  breadthFirst?: boolean;
  /** Start with reads in flight, as the walk does on its own once reads turn out slow. */
  parallelReads?: boolean;
}

export interface WalkEntry {
  /** Relative to start, "/" separators, no leading "./". */
  rel: string;
  /** Absolute path (start + rel). */
  real: string;
  /** Symlinks are never followed. */
  type: "file" | "dir" | "symlink" | "other";
  /** 1 for direct children. */
  depth: number;
}

export interface WalkResult {
  entries: WalkEntry[];
  truncated: boolean;
  timedOut: boolean;
  visited: number;
}

export type WalkEachOptions = Omit<WalkOptions, "include" | "limit">;

export interface WalkStats {
  /** The visitor returned STOP. */
  stopped: boolean;
  timedOut: boolean;
  visited: number;
}

/** A visitor's answer that ends the walk at once (the walk then reports `stopped`). */
export const STOP: unique symbol = Symbol("stop");

/**
 * Called for every entry the ignore rules and `exclude` keep, in no particular order. `dirAbs` is the
 * absolute path of the entry's directory (`start` for direct children). For a directory the walk will
 * list, what the visitor returns comes back as `parent` for that directory's own entries, so a caller
 * can build a tree without keeping paths.
 */
export type Visitor<T> = (
  name: string,
  rel: string,
  type: WalkEntry["type"],
  depth: number,
  dirAbs: string,
  parent: T | undefined,
) => T | undefined | typeof STOP;

interface DirTask<T> {
  abs: string;
  rel: string;
  depth: number;
  levels: readonly IgnoreLevel[];
  tag: T | undefined;
}

/**
 * Directories are first read synchronously in slices of SLICE_MS between event-loop turns: for cached
 * directories that is about 1.5× faster than going through the thread pool (measured on the 100,000-file
 * bench tree). A slice that manages fewer than SLOW_SLICE_READS reads means reads wait on a disk or the
 * network; the walk then switches to CONCURRENCY reads in flight.
 */
const SLICE_MS = 10;
const SLOW_SLICE_READS = 4;
const CONCURRENCY = 8;
const PROGRESS_EVERY_MS = 250;

export function cancelledError(): ToolError {
  return new ToolError("Cancelled", "cancelled");
}

function typeOf(d: Dirent): WalkEntry["type"] {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  return "other";
}

/**
 * Walks `start`, handing each kept entry to `visit`. Entries are
 * plain children of directories already inside the root and symlinks are reported, never followed, so no
 * per-entry realpath is needed: confinement holds by construction. Ignore rules are decided as git and
 * ripgrep decide them: an ignored folder is not entered, and every entry of a folder that was entered is
 * judged by its own path against each level (the deepest level with a verdict wins). A start inside an
 * ignored folder has no entries.
 */
export function walkEach<T>(opts: WalkEachOptions, visit: Visitor<T>): Promise<WalkStats> {
  const { start, gitignore, maxDepth, exclude, signal, timeLimitMs, onProgress, breadthFirst } = opts;
  if (signal?.aborted) return Promise.reject(cancelledError());
  const deadline = timeLimitMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeLimitMs;
  const startLevels = gitignore ? ancestorLevels(opts.root, start) : [];
  const nothing = gitignore && isIgnoredStart(opts.root, start);
  // On a case-insensitive volume `.GIT` is the repository and `.GITIGNORE` its rules.
  const folds = namesOf(opts.root).foldsCase;
  const queue: DirTask<T>[] = [
    {
      abs: start,
      rel: "",
      depth: 0,
      levels: startLevels,
      tag: undefined,
    },
  ];
  let head = 0; // breadth first: the queue's front
  let parallel = opts.parallelReads === true;
  let active = 0;
  let visited = 0;
  let stopped = false;
  let timedOut = false;
  let done = false;
  let lastProgress = Date.now();

  return new Promise<WalkStats>((resolve, reject) => {
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      if (err) return reject(err);
      resolve({ stopped, timedOut, visited });
    };
    const onAbort = () => finish(cancelledError());
    signal?.addEventListener("abort", onAbort, { once: true });

    const handle = (task: DirTask<T>, list: Dirent[]) => {
      // The start was read (so a missing or non-folder start still fails) but keeps nothing.
      if (nothing) return;
      let levels = task.levels;
      if (gitignore) {
        let hasGitignore = false;
        let hasGit = false;
        for (const d of list) {
          if (d.name === ".gitignore" || (folds && d.name.toLowerCase() === ".gitignore"))
            hasGitignore = true;
          else if (isGitDirName(d.name, folds)) hasGit = true;
        }
        if (hasGitignore || hasGit) {
          const fromRoot = path.relative(opts.root.real, task.abs).split(path.sep).join("/");
          levels = levelsForDir(levels, task.abs, task.rel, fromRoot, hasGitignore, hasGit, folds);
        }
      }
      const nLevels = levels.length;
      const depth = task.depth + 1;
      const descend = maxDepth === undefined || depth < maxDepth;
      for (const d of list) {
        const name = d.name;
        if (gitignore && isGitDirName(name, folds)) continue;
        if (TEMP_NAME.test(folds ? name.toLowerCase() : name)) continue;
        visited++;
        const type = typeOf(d);
        const isDir = type === "dir";
        const rel = task.rel === "" ? name : `${task.rel}/${name}`;
        if (nLevels > 0) {
          let ignored = false;
          for (let i = 0; i < nLevels; i++) {
            const lv = levels[i]!;
            const sub = lv.prefix + (lv.strip === 0 ? rel : rel.slice(lv.strip));
            const r = lv.own(isDir ? `${sub}/` : sub);
            if (r.ignored) ignored = true;
            else if (r.unignored) ignored = false;
          }
          if (ignored) continue;
        }
        if (exclude?.(rel, isDir)) continue;
        const tag = visit(name, rel, type, depth, task.abs, task.tag);
        if (tag === STOP) {
          stopped = true;
          return;
        }
        if (isDir && descend) {
          const abs = task.abs === start ? path.join(start, name) : `${task.abs}/${name}`;
          queue.push({ abs, rel, depth, levels, tag });
        }
      }
    };

    const next = (): DirTask<T> => {
      const task = breadthFirst ? queue[head++]! : queue.pop()!;
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      return task;
    };

    // Reads directories synchronously for a short slice, then yields to the event loop.
    const readSlice = () => {
      const started = Date.now();
      let reads = 0;
      while (queue.length > head && Date.now() - started < SLICE_MS) {
        const task = next();
        reads++;
        let list: Dirent[];
        try {
          list = fs.readdirSync(task.abs, { withFileTypes: true });
        } catch (err) {
          // The start must be readable; a subdirectory that vanished or is unreadable is skipped.
          if (task.depth === 0) return finish(startError(err as NodeJS.ErrnoException));
          continue;
        }
        try {
          handle(task, list);
        } catch (e) {
          return finish(e);
        }
        if (stopped) return finish();
      }
      if (queue.length === head) return finish();
      // Reads this slow are waiting on a disk or the network: overlap them from now on.
      if (reads < SLOW_SLICE_READS) parallel = true;
      setImmediate(pump);
    };

    const pump = () => {
      if (done) return;
      if (stopped) return finish();
      if (Date.now() > deadline) {
        timedOut = true;
        return finish();
      }
      if (onProgress && Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        onProgress(visited);
      }
      if (!parallel) return readSlice();
      while (active < CONCURRENCY && queue.length > head) {
        const task = next();
        active++;
        fs.readdir(task.abs, { withFileTypes: true }, (err, list) => {
          active--;
          if (done) return;
          if (err) {
            // The start must be readable; a subdirectory that vanished or is unreadable is skipped.
            if (task.depth === 0) return finish(startError(err));
          } else {
            try {
              handle(task, list);
            } catch (e) {
              return finish(e);
            }
          }
          pump();
        });
      }
      if (active === 0 && queue.length === head) finish();
    };
    // Never synchronously: the caller's own turn ends (an abort it sends can land) before any reading.
    setImmediate(pump);
  });
}

/** Every kept entry (filtered by `include`, at most `limit`), sorted by `rel` (code-unit order). */
export async function walk(opts: WalkOptions): Promise<WalkResult> {
  const { start, include, limit } = opts;
  const entries: WalkEntry[] = [];
  const stats = await walkEach<undefined>(opts, (name, rel, type, depth, dirAbs) => {
    if (include && !include(rel, type === "dir")) return undefined;
    if (limit !== undefined && entries.length >= limit) return STOP;
    const real = dirAbs === start ? path.join(start, name) : `${dirAbs}/${name}`;
    entries.push({ rel, real, type, depth });
    return undefined;
  });
  entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { entries, truncated: stats.stopped, timedOut: stats.timedOut, visited: stats.visited };
}

function startError(err: NodeJS.ErrnoException): Error {
  if (err.code === "ENOTDIR") return new ToolError("Not a directory", "not_directory");
  return err;
}
