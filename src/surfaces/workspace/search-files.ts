import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { filesMatching, searchContents } from "../../core/search/project-search.js";
import type { Root } from "../../core/workspace.js";
import { defineTool, type ToolContext, type ToolReply } from "../tool.js";
import { dictReplyWithin, projectRoot } from "./common.js";

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
  offset: z.number().int().min(0).optional().describe("Matches or files to skip (the next page)"),
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
  offset?: number;
}

/** matched_files lists at most this many files (each with its line numbers); `more` says how to see the rest. */
const MATCHED_FILES_SHOWN = 100;

/** How a cut search goes on: the next page, or a narrower glob. */
function nextStep(shownTo: number): string {
  return `Next page: offset=${shownTo} (or a larger max_results). Or narrow with glob, e.g. "src/**/*.py".`;
}

async function fileSearch(
  ctx: ToolContext,
  root: Root,
  glob: string,
  maxResults: number,
  offset: number,
): Promise<ToolReply> {
  const files = await filesMatching(root, glob, ctx.signal);
  const page = files.slice(offset, offset + Math.max(0, maxResults));
  const obj = { mode: "file_search", files: page, total_files: files.length, truncated: false };
  return dictReplyWithin(ctx, obj, ["files"], (o) => {
    const shown = (o.files as string[]).length;
    if (offset + shown >= files.length) return o;
    const more = `files ${offset + 1}-${offset + shown} of ${files.length} shown. ${nextStep(offset + shown)}`;
    return { ...o, truncated: true, more };
  });
}

async function contentSearch(
  ctx: ToolContext,
  root: Root,
  args: SearchArgs,
  pattern: string,
): Promise<ToolReply> {
  const offset = args.offset ?? 0;
  const r = await searchContents(root, {
    pattern,
    glob: args.glob ?? undefined,
    contextLines: Math.max(0, args.context_lines ?? 0),
    maxResults: args.max_results ?? 50,
    offset,
    // mcp-workspace's own bound: about 120 characters per result line.
    maxChars: (args.max_result_lines ?? 200) * 120,
    signal: ctx.signal,
    engine: ctx.config.grepEngine,
    // The reads' decode policy: a file that is not UTF-8 is searched in --default-encoding when set.
    encoding: ctx.config.defaultEncoding,
  });
  const out: Record<string, unknown> = {
    mode: "content_search",
    details: r.details,
    total_matches: r.total,
    truncated: r.truncated,
  };
  if (r.truncated) out.matched_files = r.matchedFiles.slice(0, MATCHED_FILES_SHOWN);
  if (r.capped) out.total_matches_capped = true;
  if (r.literal) out.note = LITERAL_NOTE;
  // Past the reply budget, the per-file line lists go first, then the details; `more` counts what stayed.
  return dictReplyWithin(ctx, out, ["matched_files", "details"], (o) =>
    o.truncated ? { ...o, more: contentMore(o, r.total, r.capped, r.matchedFiles.length, offset) } : o,
  );
}

/** What a cut content search shows of the matches and of the matched files, and how to go on. */
function contentMore(
  o: Record<string, unknown>,
  total: number,
  capped: boolean,
  files: number,
  offset: number,
): string {
  const shown = (o.details as unknown[]).length;
  const listed = ((o.matched_files as unknown[] | undefined) ?? []).length;
  const of = `${total}${capped ? "+" : ""}`;
  const what =
    shown === 0
      ? `no matches after offset ${offset} of ${of}`
      : `matches ${offset + 1}-${offset + shown} of ${of} shown`;
  return `${what}; matched_files lists ${listed} of ${files} files. ${nextStep(offset + shown)}`;
}

/** search_files and search_reference_files: glob-only lists files, a pattern searches contents. */
export async function searchIn(ctx: ToolContext, root: Root, args: SearchArgs): Promise<ToolReply> {
  const glob = args.glob ?? undefined;
  const pattern = args.pattern ?? undefined;
  if (glob === undefined && pattern === undefined)
    throw new ToolError("invalid", { reason: "glob_or_pattern" });
  if (pattern !== undefined) return contentSearch(ctx, root, args, pattern);
  return fileSearch(ctx, root, glob!, args.max_results ?? 50, args.offset ?? 0);
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
