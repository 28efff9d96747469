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

async function fileSearch(
  ctx: ToolContext,
  root: Root,
  glob: string,
  maxResults: number,
): Promise<ToolReply> {
  const files = await filesMatching(root, glob, ctx.signal);
  return dictReplyWithin(
    ctx,
    {
      mode: "file_search",
      files: files.slice(0, Math.max(0, maxResults)),
      total_files: files.length,
      truncated: files.length > maxResults,
    },
    ["files"],
  );
}

async function contentSearch(
  ctx: ToolContext,
  root: Root,
  args: SearchArgs,
  pattern: string,
): Promise<ToolReply> {
  const r = await searchContents(root, {
    pattern,
    glob: args.glob ?? undefined,
    contextLines: Math.max(0, args.context_lines ?? 0),
    maxResults: args.max_results ?? 50,
    // mcp-workspace's own bound: about 120 characters per result line.
    maxChars: (args.max_result_lines ?? 200) * 120,
    signal: ctx.signal,
    engine: ctx.config.grepEngine,
  });
  const out: Record<string, unknown> = {
    mode: "content_search",
    details: r.details,
    total_matches: r.total,
    truncated: r.truncated,
  };
  if (r.truncated) out.matched_files = r.matchedFiles;
  if (r.capped) out.total_matches_capped = true;
  if (r.literal) out.note = LITERAL_NOTE;
  // Past the reply budget, the per-file line lists go first, then the details.
  return dictReplyWithin(ctx, out, ["matched_files", "details"]);
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
