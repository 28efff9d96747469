import type { Dirent } from "node:fs";
import path from "node:path";
import { TEMP_NAME } from "./fs/safe-open.js";
import type { IgnoreLevel } from "./ignore.js";
import { IgnoreStack } from "./walk/ignore-stack.js";
import { cancelledError, type OnListing, type QueuedDir, scheduleReads } from "./walk/scheduler.js";
import { namesOf, type Root } from "./workspace.js";

export { cancelledError } from "./walk/scheduler.js";

export interface WalkOptions {
  /** Confinement root (from a ResolvedPath). */
  root: Root;
  /** Real path of the directory to walk (inside root). */
  start: string;
  /** Honour .gitignore at every level + .git/info/exclude; skip .git/. */
  gitignore: boolean;
  /** With `gitignore`: keep what the rules ignore (`.git/` stays skipped), as `rg --no-ignore` does. */
  includeIgnored?: boolean;
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
  /** Entries the ignore rules left out (an ignored folder counts once: it is not entered). */
  ignored: number;
}

export type WalkEachOptions = Omit<WalkOptions, "include" | "limit">;

export interface WalkStats {
  /** The visitor returned STOP. */
  stopped: boolean;
  timedOut: boolean;
  visited: number;
  /** Entries the ignore rules left out (an ignored folder counts once: it is not entered). */
  ignored: number;
}

/** A visitor's answer that ends the walk at once (the walk then reports `stopped`). */
export const STOP: unique symbol = Symbol("stop");

/**
 * Called for every entry the ignore rules and `exclude` keep, in no particular order. `dirAbs` is the
 * absolute path of the entry's directory (`start` for direct children). For a directory the walk will
 * list, what the visitor returns comes back as `parent` for that directory's own entries, so a caller
 * can build a tree without keeping paths. It returns STOP to end the walk (`exclude` keeps the walk out
 * of a directory).
 */
export type Visitor<T> = (
  name: string,
  rel: string,
  type: WalkEntry["type"],
  depth: number,
  dirAbs: string,
  parent: T | undefined,
) => T | undefined | typeof STOP;

interface DirTask<T> extends QueuedDir {
  rel: string;
  depth: number;
  levels: readonly IgnoreLevel[];
  tag: T | undefined;
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
 * judged by its own path against each level (the deepest level with a verdict wins). The start itself is
 * never judged, as ripgrep never filters a path it is given: a start inside an ignored folder is walked,
 * its entries judged by every level, the folders above it included.
 */
export async function walkEach<T>(opts: WalkEachOptions, visit: Visitor<T>): Promise<WalkStats> {
  const { start, timeLimitMs, onProgress } = opts;
  if (opts.signal?.aborted) throw cancelledError();
  const ignores = new IgnoreStack(opts.root, start, opts.gitignore, opts.includeIgnored !== true);
  const counter = { visited: 0, ignored: 0 };
  const first: DirTask<T> = { abs: start, rel: "", depth: 0, levels: ignores.atStart, tag: undefined };
  const { stopped, timedOut } = await scheduleReads(first, visitListing(opts, ignores, visit, counter), {
    breadthFirst: opts.breadthFirst,
    parallelReads: opts.parallelReads,
    signal: opts.signal,
    deadline: timeLimitMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeLimitMs,
    onProgress: onProgress && (() => onProgress(counter.visited)),
  });
  return { stopped, timedOut, visited: counter.visited, ignored: counter.ignored };
}

/**
 * One directory's listing through the walk's filters in order: the walk's own names (`.git`, staged
 * temp files), the ignore rules, `exclude`, then the visitor; kept folders within `maxDepth` are queued.
 * True when the visitor said STOP.
 */
function visitListing<T>(
  opts: WalkEachOptions,
  ignores: IgnoreStack,
  visit: Visitor<T>,
  counter: { visited: number; ignored: number },
): OnListing<DirTask<T>> {
  const { start, maxDepth, exclude } = opts;
  const folds = namesOf(opts.root).foldsCase;
  // `--deny`: denied entries are left out and never entered (see deny.ts); their names are never handed on.
  const deny = opts.root.deny;
  const fromRoot = deny ? path.relative(opts.root.real, start).split(path.sep).join("/") : "";
  return (task, list, queue) => {
    const levels = ignores.enter(task.levels, task.abs, task.rel, list);
    const depth = task.depth + 1;
    const descend = maxDepth === undefined || depth < maxDepth;
    for (const d of list) {
      const name = d.name;
      if (ignores.hides(name) || TEMP_NAME.test(folds ? name.toLowerCase() : name)) continue;
      const rel = task.rel === "" ? name : `${task.rel}/${name}`;
      // Denied entries are not even counted: no reply may reveal that they exist.
      if (deny?.deniesChild(fromRoot, rel, folds)) continue;
      counter.visited++;
      const type = typeOf(d);
      const isDir = type === "dir";
      if (ignores.ignores(levels, rel, isDir)) {
        counter.ignored++;
        continue;
      }
      if (exclude?.(rel, isDir)) continue;
      const tag = visit(name, rel, type, depth, task.abs, task.tag);
      if (tag === STOP) return true;
      if (isDir && descend) {
        const abs = task.abs === start ? path.join(start, name) : `${task.abs}/${name}`;
        queue.push({ abs, rel, depth, levels, tag });
      }
    }
    return false;
  };
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
  const { stopped, timedOut, visited, ignored } = stats;
  return { entries, truncated: stopped, timedOut, visited, ignored };
}
