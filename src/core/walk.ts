import fs, { type Dirent } from "node:fs";
import path from "node:path";
import { ToolError } from "./errors.js";
import { TEMP_NAME } from "./files/safe-open.js";
import { ancestorLevels, type IgnoreLevel, isIgnoredBy, levelsForDir } from "./ignore.js";
import type { Root } from "./workspace.js";

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

interface DirTask {
  abs: string;
  rel: string;
  depth: number;
  levels: readonly IgnoreLevel[];
}

/** Directory reads in flight: enough to keep libuv's pool busy without flooding it. */
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
 * Walks `start` breadth-first with a few directory reads in flight. Entries are plain children of
 * directories already inside the root and symlinks are reported, never followed, so no per-entry realpath
 * is needed: confinement holds by construction. Returns entries sorted by `rel` (code-unit order).
 */
export function walk(opts: WalkOptions): Promise<WalkResult> {
  const { start, gitignore, maxDepth, exclude, include, limit, signal, timeLimitMs, onProgress } = opts;
  if (signal?.aborted) return Promise.reject(cancelledError());
  const deadline = timeLimitMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeLimitMs;
  const entries: WalkEntry[] = [];
  const queue: DirTask[] = [
    { abs: start, rel: "", depth: 0, levels: gitignore ? ancestorLevels(opts.root, start) : [] },
  ];
  let active = 0;
  let visited = 0;
  let truncated = false;
  let timedOut = false;
  let done = false;
  let lastProgress = Date.now();

  return new Promise<WalkResult>((resolve, reject) => {
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      signal?.removeEventListener("abort", onAbort);
      if (err) return reject(err);
      entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      resolve({ entries, truncated, timedOut, visited });
    };
    const onAbort = () => finish(cancelledError());
    signal?.addEventListener("abort", onAbort, { once: true });

    const handle = (task: DirTask, list: Dirent[]) => {
      let levels = task.levels;
      if (gitignore) {
        let hasGitignore = false;
        let hasGit = false;
        for (const d of list) {
          if (d.name === ".gitignore") hasGitignore = true;
          else if (d.name === ".git") hasGit = true;
        }
        if (hasGitignore || hasGit) {
          const fromRoot = path.relative(opts.root.real, task.abs).split(path.sep).join("/");
          levels = levelsForDir(levels, task.abs, task.rel, fromRoot, hasGitignore, hasGit);
        }
      }
      const depth = task.depth + 1;
      const descend = maxDepth === undefined || depth < maxDepth;
      for (const d of list) {
        const name = d.name;
        if (gitignore && name === ".git") continue;
        if (TEMP_NAME.test(name)) continue;
        visited++;
        const type = typeOf(d);
        const isDir = type === "dir";
        const rel = task.rel === "" ? name : `${task.rel}/${name}`;
        if (levels.length > 0 && isIgnoredBy(levels, rel, isDir)) continue;
        if (exclude?.(rel, isDir)) continue;
        const abs = task.abs === start ? path.join(start, name) : `${task.abs}/${name}`;
        if (!include || include(rel, isDir)) {
          if (limit !== undefined && entries.length >= limit) {
            truncated = true;
            return;
          }
          entries.push({ rel, real: abs, type, depth });
        }
        if (isDir && descend) queue.push({ abs, rel, depth, levels });
      }
    };

    const pump = () => {
      if (done) return;
      if (truncated) return finish();
      if (Date.now() > deadline) {
        timedOut = true;
        return finish();
      }
      if (onProgress && Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        onProgress(visited);
      }
      while (active < CONCURRENCY && queue.length > 0) {
        const task = queue.pop()!;
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
      if (active === 0 && queue.length === 0) finish();
    };
    pump();
  });
}

function startError(err: NodeJS.ErrnoException): Error {
  if (err.code === "ENOTDIR") return new ToolError("Not a directory", "not_directory");
  return err;
}
