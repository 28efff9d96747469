/**
 * The seam between the grep front (grep.ts) and its two engines (grep-rg.ts, grep-js.ts): what the front
 * hands an engine and what an engine hands back. Below all three, so the engines never import the front that
 * loads them (no import cycle).
 */
import type { Root } from "../root.js";

export interface GrepOptions {
  /** As for walk; `start` may also be a single file's real path. */
  root: Root;
  start: string;
  pattern: string;
  /** Default false: the pattern is a regular expression (RE2 / Rust regex syntax, linear time). */
  literal?: boolean;
  /** Default true. */
  caseSensitive?: boolean;
  /** gitignore-style include globs relative to start (e.g. "*.ts", "src/**"); "!" excludes. */
  globs?: string[];
  contextLines?: number;
  /** Cap on matches (files when filesOnly). */
  maxResults?: number;
  filesOnly?: boolean;
  /**
   * With `filesOnly`: the files only pick what the caller then reads itself through the path gate (the code
   * tools), so ripgrep's list is returned as it is: not read again here, and no count of what was ignored.
   */
  candidates?: boolean;
  gitignore: boolean;
  /** With `gitignore`: search what the rules ignore too (`.git/` stays skipped). */
  includeIgnored?: boolean;
  signal?: AbortSignal;
  /** Cap on the size of the matches returned (path + text of each line, context included). */
  budgetBytes?: number;
  /** Results (matches, or files with filesOnly) to skip first, in sorted order: the next page. */
  offset?: number;
  /** Default auto: ripgrep from @vscode/ripgrep, else pure TS (`Config.grepEngine`, env MCPFS_GREP_ENGINE). */
  engine?: "auto" | "rg" | "js";
  /**
   * The reads' decode policy for files that are not UTF-8 (an iconv-lite name, from the call or
   * `--default-encoding`): such a file is decoded from it and searched; a UTF-16/32 BOM always decides. When
   * set, the in-process engine searches: ripgrep's `-E` would read the tree's UTF-8 files in it too.
   */
  encoding?: string;
  /**
   * How a returned line (match or context) is shortened; `col` is the match start (0 for context lines).
   * Default `cutLine`: a 400-character window around the match.
   */
  formatLine?: (text: string, col: number) => string;
}

export interface GrepLine {
  line: number;
  text: string;
}

export interface GrepMatch {
  /** Relative to start, "/" separators (the file's base name when start is a file). */
  path: string;
  line: number;
  text: string;
  before: GrepLine[];
  after: GrepLine[];
}

export interface GrepResult {
  matches: GrepMatch[];
  /** Files with at least one match, sorted. */
  files: string[];
  truncated: boolean;
  engine: "rg" | "js";
  /** Entries the ignore rules left out of the scope (an ignored folder counts once). */
  ignored: number;
}

/** What an engine hands back before sorting and capping. */
export interface RawGrep<T extends Hit = GrepMatch> {
  matches: T[];
  files: string[];
  /** The engine stopped collecting early (cap reached). */
  capped: boolean;
}

/** A line an engine names: ripgrep's are read again through the verified open for their text. */
export interface Hit {
  path: string;
  line: number;
}

/** An engine's job: the options plus the collection cap it may stop at. */
export interface EngineJob extends GrepOptions {
  collectCap: number;
}

/** A file an engine searches: its path relative to the start and its real path. */
export interface GrepTarget {
  rel: string;
  real: string;
}
