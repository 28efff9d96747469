import { RE2JS } from "re2js";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { compileGlobs } from "../../core/search/globs.js";
import { type GrepMatch, grep } from "../../core/search/grep.js";
import { walk } from "../../core/walk.js";
import type { Root } from "../../core/workspace.js";
import { defineTool, type ToolContext, type ToolReply } from "../tool.js";
import { dictReply, projectRoot } from "./common.js";

const MAX_LINE_CHARS = 500;
/** Matches collected beyond max_results, so total_matches and matched_files stay meaningful. */
const COUNT_CAP = 20_000;
const LITERAL_NOTE =
  "Pattern treated as literal text (invalid regex). Use Python re syntax for regex search.";

export const searchShape = {
  glob: z
    .string()
    .nullable()
    .optional()
    .describe('File path pattern with gitignore semantics (e.g. "*.py", "tests/**/test_*.py", "/README.md")'),
  pattern: z
    .string()
    .nullable()
    .optional()
    .describe(
      'Regex to match file contents; an invalid regex is searched as literal text (e.g. "def foo", "TODO.*fix")',
    ),
  context_lines: z.number().int().min(0).default(0).describe("Lines around each match"),
  max_results: z.number().int().default(50).describe("Most matches or files returned"),
  max_result_lines: z.number().int().default(200).describe("Most output lines"),
};

/** mcp-workspace returns a dict whose keys depend on the mode (file_search or content_search). */
export const searchOutput = z.looseObject({
  mode: z.enum(["file_search", "content_search"]),
  truncated: z.boolean(),
});

export interface SearchArgs {
  glob?: string | null;
  pattern?: string | null;
  context_lines?: number;
  max_results?: number;
  max_result_lines?: number;
}

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

async function fileSearch(
  ctx: ToolContext,
  root: Root,
  glob: string,
  maxResults: number,
): Promise<ToolReply> {
  const filter = compileGlobs([glob]);
  const { entries } = await walk({
    root,
    start: root.real,
    gitignore: true,
    signal: ctx.signal,
    exclude: (rel, isDir) => isDir && (filter?.prunes(rel) ?? false),
    include: (rel, isDir) => !isDir && (filter?.file(rel) ?? true),
  });
  const files = entries.filter((e) => e.type === "file" || e.type === "symlink").map((e) => e.rel);
  return dictReply({
    mode: "file_search",
    files: files.slice(0, Math.max(0, maxResults)),
    total_files: files.length,
    truncated: files.length > maxResults,
  });
}

async function contentSearch(
  ctx: ToolContext,
  root: Root,
  args: SearchArgs,
  pattern: string,
): Promise<ToolReply> {
  const maxResults = args.max_results ?? 50;
  const contextLines = Math.max(0, args.context_lines ?? 0);
  const budget = (args.max_result_lines ?? 200) * 120;
  let literal = !compiles(pattern);
  const run = () =>
    grep({
      root,
      start: root.real,
      pattern,
      literal,
      globs: args.glob ? [args.glob] : undefined,
      contextLines,
      maxResults: COUNT_CAP,
      gitignore: true,
      signal: ctx.signal,
      formatLine: cutLine,
    });
  let result: Awaited<ReturnType<typeof grep>>;
  try {
    result = await run();
  } catch (err) {
    // The engine's own syntax may still refuse what RE2 accepted: fall back to a literal search then too.
    if (literal || !(err instanceof ToolError) || err.code !== "invalid") throw err;
    literal = true;
    result = await run();
  }
  const details: { file: string; line: number; text: string }[] = [];
  const byFile = new Map<string, number[]>();
  let used = 0;
  let truncated = false;
  for (const m of result.matches) {
    const lines = byFile.get(m.path) ?? [];
    lines.push(m.line);
    byFile.set(m.path, lines);
    if (truncated) continue;
    const text = contextText(m);
    if (details.length >= maxResults || used + text.length > budget) {
      truncated = true;
      continue;
    }
    details.push({ file: m.path, line: m.line, text });
    used += text.length;
  }
  if (result.truncated) truncated = true;
  const out: Record<string, unknown> = {
    mode: "content_search",
    details,
    total_matches: result.matches.length,
    truncated,
  };
  if (truncated) out.matched_files = [...byFile].map(([file, lines]) => ({ file, lines }));
  if (result.truncated) out.total_matches_capped = true;
  if (literal) out.note = LITERAL_NOTE;
  return dictReply(out);
}

function contextText(m: GrepMatch): string {
  return [...m.before.map((l) => l.text), m.text, ...m.after.map((l) => l.text)].join("\n");
}

/** search_files and search_reference_files: glob-only lists files, a pattern searches contents. */
export async function searchIn(ctx: ToolContext, root: Root, args: SearchArgs): Promise<ToolReply> {
  const glob = args.glob ?? undefined;
  const pattern = args.pattern ?? undefined;
  if (glob === undefined && pattern === undefined)
    throw new ToolError("At least one of 'glob' or 'pattern' must be provided");
  if (pattern !== undefined) return contentSearch(ctx, root, args, pattern);
  return fileSearch(ctx, root, glob!, args.max_results ?? 50);
}

export const DESCRIPTION_TAIL =
  "glob finds files by path (like find), pattern searches their contents (like grep); both: contents of the matching files.";

export const searchFilesTool = defineTool({
  name: "search_files",
  title: "Search Files",
  description: `Search the project: ${DESCRIPTION_TAIL}`,
  input: z.object(searchShape),
  output: searchOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler: (args, ctx) => searchIn(ctx, projectRoot(ctx), args),
});
