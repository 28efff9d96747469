/**
 * mcp-workspace's search_files engine: a glob lists files, a pattern searches contents (an invalid regex is
 * searched as literal text), and matches are gathered into `details` up to a count and a size, with every
 * match still counted per file.
 */
import { RE2JS } from "re2js";
import { ToolError } from "../errors.js";
import { walk } from "../walk.js";
import type { Root } from "../workspace.js";
import { compileGlobs } from "./globs.js";
import { grep } from "./grep.js";
import type { GrepMatch, GrepOptions } from "./grep-job.js";
import { admitPattern } from "./regex-admit.js";

const MAX_LINE_CHARS = 500;
/** Matches collected beyond maxResults, so the totals and matched files stay meaningful. */
const COUNT_CAP = 20_000;

/** mcp-workspace keeps the head of a long line and says how long it was (the engine's own cut is a window). */
function cutLine(text: string): string {
  const line = text.replace(/\r$/, "");
  return line.length > MAX_LINE_CHARS
    ? `${line.slice(0, MAX_LINE_CHARS)} ... [truncated, line has ${line.length} chars]`
    : line;
}

/** Whether a pattern compiles as a regular expression for the search engine (RE2 syntax). */
function compiles(pattern: string): boolean {
  try {
    RE2JS.compile(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The files (and links) of `root` whose path matches `glob`, gitignore applied. */
export async function filesMatching(root: Root, glob: string, signal: AbortSignal): Promise<string[]> {
  const filter = compileGlobs([glob]);
  const { entries } = await walk({
    root,
    start: root.real,
    gitignore: true,
    signal,
    exclude: (rel, isDir) => isDir && (filter?.prunes(rel) ?? false),
    include: (rel, isDir) => !isDir && (filter?.file(rel) ?? true),
  });
  return entries.filter((e) => e.type === "file" || e.type === "symlink").map((e) => e.rel);
}

export interface ContentSearchOptions {
  pattern: string;
  glob?: string;
  contextLines: number;
  /** Most matches in `details`. */
  maxResults: number;
  /** Matches to skip before `details` starts (the next page). */
  offset?: number;
  /** Most characters of match text (with context) in `details`. */
  maxChars: number;
  signal: AbortSignal;
  engine?: GrepOptions["engine"];
  encoding?: GrepOptions["encoding"];
}

export interface ContentSearchResult {
  details: { file: string; line: number; text: string }[];
  /** Matches found (up to the count cap). */
  total: number;
  /** `details` leaves some out. */
  truncated: boolean;
  /** Every file with a match and its matching lines. */
  matchedFiles: { file: string; lines: number[] }[];
  /** The count cap was reached: `total` is a lower bound. */
  capped: boolean;
  /** The pattern was searched as literal text (it is no valid regex). */
  literal: boolean;
}

export async function searchContents(root: Root, opts: ContentSearchOptions): Promise<ContentSearchResult> {
  // Judged as a regex (an invalid one is searched as text, but must not stall the server either).
  await admitPattern(opts.pattern, false, true);
  let literal = !compiles(opts.pattern);
  const run = () =>
    grep({
      root,
      start: root.real,
      pattern: opts.pattern,
      literal,
      globs: opts.glob ? [opts.glob] : undefined,
      contextLines: opts.contextLines,
      maxResults: COUNT_CAP,
      gitignore: true,
      signal: opts.signal,
      formatLine: cutLine,
      engine: opts.engine,
      encoding: opts.encoding,
    });
  let result: Awaited<ReturnType<typeof grep>>;
  try {
    result = await run();
  } catch (err) {
    // The engine's own syntax may still refuse what RE2 accepted: fall back to a literal search then too.
    if (literal || !(err instanceof ToolError) || err.kind !== "invalid") throw err;
    literal = true;
    result = await run();
  }
  const details: ContentSearchResult["details"] = [];
  const byFile = new Map<string, number[]>();
  let used = 0;
  let truncated = false;
  let skip = opts.offset ?? 0;
  for (const m of result.matches) {
    const lines = byFile.get(m.path) ?? [];
    lines.push(m.line);
    byFile.set(m.path, lines);
    if (truncated) continue;
    if (skip > 0) {
      skip--;
      continue;
    }
    const text = contextText(m);
    if (details.length >= opts.maxResults || used + text.length > opts.maxChars) {
      truncated = true;
      continue;
    }
    details.push({ file: m.path, line: m.line, text });
    used += text.length;
  }
  return {
    details,
    total: result.matches.length,
    truncated: truncated || result.truncated,
    matchedFiles: [...byFile].map(([file, lines]) => ({ file, lines })),
    capped: result.truncated,
    literal,
  };
}

function contextText(m: GrepMatch): string {
  return [...m.before.map((l) => l.text), m.text, ...m.after.map((l) => l.text)].join("\n");
}
