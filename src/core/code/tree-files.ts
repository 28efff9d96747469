/** The code files below a directory (gitignore as the walk applies it), sorted, for tree-wide tools. */
import { walk } from "../walk.js";
import type { Root } from "../workspace.js";
import { type Language, languageOf } from "./languages.js";

export interface TreeFilesOptions {
  root: Root;
  start: string;
  gitignore: boolean;
  signal?: AbortSignal;
  /** Stop after this many files (the result says so). Default 20,000. */
  limit?: number;
  /** Include Markdown (outlines do; references and the repo map do not). */
  markdown?: boolean;
  /** Told the language of each code file as the walk finds it, before the walk ends. */
  found?: (language: Language) => void;
}

/** Relative paths ("/" separators) of the regular files with a grammar; symlinks are never followed. */
export async function codeFilesUnder(
  opts: TreeFilesOptions,
): Promise<{ files: string[]; truncated: boolean }> {
  const r = await walk({
    root: opts.root,
    start: opts.start,
    gitignore: opts.gitignore,
    signal: opts.signal,
    limit: opts.limit ?? 20_000,
    timeLimitMs: 60_000,
    include: (rel, isDir) => {
      if (isDir) return false;
      const lang = languageOf(rel);
      const kept = lang !== undefined && (opts.markdown !== false || lang !== "markdown");
      if (kept) opts.found?.(lang);
      return kept;
    },
  });
  const files = r.entries.filter((e) => e.type === "file").map((e) => e.rel);
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, truncated: r.truncated || r.timedOut };
}
