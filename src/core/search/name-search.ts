/** search_files's engine: entries whose path below a directory matches a glob, sorted as they are shown. */

import { describeLink } from "../listing/listing.js";
import { walk } from "../walk.js";
import type { ResolvedPath, Workspace } from "../workspace.js";
import { comparePaths, compileExcludes } from "./exclude.js";
import { compileGlob } from "./glob-match.js";

export interface NameSearchOptions {
  /** Glob over the path relative to the directory ('*.ts' there, '**\/*.ts' at any depth). */
  pattern: string;
  /** Globs of entries to prune; without '/' they match at any depth. */
  excludePatterns: readonly string[];
  gitignore: boolean;
  /** With `gitignore`: list what the rules ignore too (`.git/` stays skipped). */
  includeIgnored?: boolean;
  /** Stop after this many matches (the result is then `truncated`). */
  limit: number;
  signal: AbortSignal;
  timeLimitMs: number;
  onProgress?: (visited: number) => void;
}

export interface NameSearchResult {
  /** Matching paths relative to the directory, in `comparePaths` order. */
  rels: string[];
  truncated: boolean;
  timedOut: boolean;
  visited: number;
  /** Entries the ignore rules left out (an ignored folder counts once). */
  ignored: number;
}

export async function searchNames(
  ws: Workspace,
  dir: ResolvedPath,
  opts: NameSearchOptions,
): Promise<NameSearchResult> {
  const isMatch = compileGlob(opts.pattern);
  const r = await walk({
    root: dir.root,
    start: dir.real,
    gitignore: opts.gitignore,
    includeIgnored: opts.includeIgnored,
    exclude: compileExcludes(opts.excludePatterns),
    include: (rel) => isMatch(rel),
    limit: opts.limit,
    signal: opts.signal,
    timeLimitMs: opts.timeLimitMs,
    onProgress: opts.onProgress,
  });
  // As the official server does, a symlink whose target lies outside the roots is not listed (its name
  // would point the client at a place it cannot use); one pointing inside is listed, never followed.
  const shown: string[] = [];
  for (const e of r.entries)
    if (e.type !== "symlink" || (await describeLink(ws, e.real)) !== undefined) shown.push(e.rel);
  const { truncated, timedOut, visited, ignored } = r;
  return { rels: shown.sort(comparePaths), truncated, timedOut, visited, ignored };
}
