/**
 * The files a tree-wide code tool looks at: ripgrep (the grep core) picks the files that contain a word, or
 * the walk lists every code file; each file is then resolved by the surface (path gate, its ignore rules)
 * before it is read. A file the surface refuses is skipped, never read.
 */
import path from "node:path";
import { ToolError } from "../errors.js";
import { grep } from "../search/grep.js";
import type { ResolvedPath, Root } from "../workspace.js";
import { languageOf } from "./languages.js";
import { warmParser } from "./parser-pool.js";
import { type CodeText, viewCode } from "./source.js";
import { codeFilesUnder } from "./tree-files.js";

export interface CodeScope {
  root: Root;
  /** Real path of the directory or file searched. */
  start: string;
  isFile: boolean;
  gitignore: boolean;
  engine?: "auto" | "rg" | "js";
  /** `--default-encoding`: the reads' decode policy for a file that is not UTF-8. */
  encoding?: string;
  signal?: AbortSignal;
  /** The surface's gate for one file found below `start` (its real path); `undefined` = skip it. */
  admit(real: string): Promise<ResolvedPath | undefined>;
  /**
   * Scope-relative paths of the files this call left out for being over the code tools' size limit (filled
   * as it reads): a reply names them, so an answer without them does not pass for a whole one. A file the
   * gate refuses is never listed here.
   */
  readonly tooLarge: string[];
}

/** Scope-relative paths of the code files that contain `word` (a literal), sorted. */
export async function filesWithWord(scope: CodeScope, word: string, caseSensitive = true): Promise<string[]> {
  const r = await grep({
    root: scope.root,
    start: scope.start,
    pattern: word,
    literal: true,
    caseSensitive,
    filesOnly: true,
    candidates: true, // each file is read through the surface's gate below (readInScope)
    maxResults: 100_000,
    gitignore: scope.gitignore,
    signal: scope.signal,
    engine: scope.engine,
  });
  return r.files.filter((f) => languageOf(f) !== undefined);
}

/**
 * Scope-relative paths of every code file (Markdown too with `markdown`). Each grammar starts loading when
 * the walk finds its first file: the caller parses them next.
 */
export async function allCodeFiles(
  scope: CodeScope,
  markdown: boolean,
): Promise<{ files: string[]; truncated: boolean }> {
  if (scope.isFile) return { files: [path.basename(scope.start)], truncated: false };
  return codeFilesUnder({
    root: scope.root,
    start: scope.start,
    gitignore: scope.gitignore,
    signal: scope.signal,
    markdown,
    found: (lang) => {
      if (lang !== "markdown") warmParser(lang);
    },
  });
}

/**
 * Reads a scope-relative file through the surface's gate; `undefined` when refused, gone, unreadable or too
 * large to parse (then it is listed in `scope.tooLarge`).
 */
export async function readInScope(scope: CodeScope, rel: string): Promise<CodeText | undefined> {
  const real = scope.isFile ? scope.start : path.join(scope.start, ...rel.split("/"));
  try {
    const target = await scope.admit(real);
    return target ? await viewCode(target, scope.encoding) : undefined;
  } catch (err) {
    if (err instanceof ToolError && err.kind === "cancelled") throw err;
    if (err instanceof ToolError && err.kind === "too_large") scope.tooLarge.push(rel);
    return undefined;
  }
}

/**
 * `load` of each item in order, with up to `width` loads running ahead of the one consumed: the worker
 * parses the next files while this thread reads and prints. Loads begun but not consumed (the consumer
 * stopped) run to their end; their results stay in the caches and their failures are dropped.
 */
export async function* inOrderAhead<T, R>(
  items: readonly T[],
  width: number,
  load: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const started: Promise<R>[] = [];
  const start = (i: number) => {
    if (i < items.length && started[i] === undefined) {
      const p = load(items[i]!);
      p.catch(() => {});
      started[i] = p;
    }
  };
  for (let i = 0; i < items.length; i++) {
    for (let j = i; j < i + width; j++) start(j);
    const p = started[i]!;
    delete started[i];
    yield await p;
  }
}
