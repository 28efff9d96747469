import path from "node:path";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { escapeName } from "../../core/paths.js";
import { type GrepMatch, grep, isFileTarget } from "../../core/search/grep.js";
import { defineTool, textReply } from "../tool.js";

const DEFAULT_MAX_RESULTS = 500;
const PROGRESS_EVERY_MS = 1000;

const input = z.object({
  path: z.string().describe("Directory (searched recursively) or file to search"),
  pattern: z
    .string()
    .describe(
      "Regular expression (RE2/Rust syntax: no backreferences or lookaround), or text with literal=true",
    ),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(
      "Only search files matching this gitignore-style glob, relative to path: '*.ts' (any depth), " +
        "'src/**/*.py' (anchored); a leading '!' excludes. Several may be given as a list",
    ),
  caseSensitive: z.boolean().optional().default(true).describe("Match case exactly (default true)"),
  literal: z.boolean().optional().default(false).describe("Treat pattern as plain text, not a regex"),
  contextLines: z
    .number()
    .int()
    .min(0)
    .max(20)
    .optional()
    .default(0)
    .describe("Lines of context before and after each match"),
  maxResults: z
    .number()
    .int()
    .min(1)
    .optional()
    .default(DEFAULT_MAX_RESULTS)
    .describe(`Maximum matching lines (or files with filesOnly) to return (default ${DEFAULT_MAX_RESULTS})`),
  filesOnly: z.boolean().optional().default(false).describe("Only list the files that contain a match"),
});

const line = z.object({ line: z.number(), text: z.string() });
const output = z.object({
  content: z.string(),
  matches: z
    .array(
      z.object({
        path: z.string(),
        line: z.number(),
        text: z.string(),
        before: z.array(line).optional(),
        after: z.array(line).optional(),
      }),
    )
    .describe("Matching lines (empty with filesOnly); paths as the client would pass them"),
  files: z.array(z.string()).describe("Files with at least one match"),
  truncated: z.boolean().describe("true when more results exist than were returned"),
});

const DESCRIPTION =
  "Search the contents of files for a regular expression or literal text, recursively under a directory " +
  "(or in one file). Honours .gitignore and skips .git/ and binary files. Returns 'path:line: text' lines " +
  "grouped by file (context lines as 'path-line- text'), sorted by path, plus structured matches. Use glob " +
  "to restrict file names (e.g. '*.ts'), filesOnly to list matching files, contextLines for surrounding " +
  "lines. Fast (ripgrep). Only works within allowed directories.";

/** How a result path is shown: joined to the path the client gave, so it can be passed straight back. */
function shown(requested: string, isFile: boolean, rel: string): string {
  return isFile ? requested : path.posix.join(requested, rel);
}

/**
 * `path:line: text` for matches and `path-line- text` for context, one group per file, `--` between
 * non-adjacent runs; a line is printed once even when it is both a match and another match's context.
 */
function formatMatches(
  matches: GrepMatch[],
  show: (rel: string) => string,
  budget: number,
  withContext: boolean,
): { text: string; kept: number } {
  const out: string[] = [];
  let used = 0;
  let kept = 0;
  let i = 0;
  while (i < matches.length) {
    const file = matches[i]!.path;
    const p = escapeName(show(file));
    const lines = new Map<number, { text: string; hit: boolean }>();
    let stop = false;
    for (; i < matches.length && matches[i]!.path === file; i++) {
      const m = matches[i]!;
      let size = 0;
      const add = (n: number, text: string, hit: boolean) => {
        const had = lines.get(n);
        if (!had) size += Buffer.byteLength(text) + p.length + 12;
        if (!had || hit) lines.set(n, { text, hit: hit || (had?.hit ?? false) });
      };
      for (const c of m.before) add(c.line, c.text, false);
      add(m.line, m.text, true);
      for (const c of m.after) add(c.line, c.text, false);
      if (used + size > budget && kept > 0) {
        // This match does not fit: keep only the lines the earlier matches of this file need.
        lines.clear();
        for (const x of matches.slice(i - countInFile(matches, i, file), i)) {
          for (const c of x.before) if (!lines.has(c.line)) lines.set(c.line, { text: c.text, hit: false });
          lines.set(x.line, { text: x.text, hit: true });
          for (const c of x.after) if (!lines.has(c.line)) lines.set(c.line, { text: c.text, hit: false });
        }
        stop = true;
        break;
      }
      used += size;
      kept++;
    }
    if (out.length > 0 && lines.size > 0) out.push("");
    let prev = 0;
    for (const n of [...lines.keys()].sort((a, b) => a - b)) {
      if (withContext && prev !== 0 && n > prev + 1) out.push("--");
      const l = lines.get(n)!;
      out.push(l.hit ? `${p}:${n}: ${l.text}` : `${p}-${n}- ${l.text}`);
      prev = n;
    }
    if (stop) break;
  }
  return { text: out.join("\n"), kept };
}

/** How many of the matches before index `i` belong to `file` (they are contiguous). */
function countInFile(matches: GrepMatch[], i: number, file: string): number {
  let n = 0;
  for (let k = i - 1; k >= 0 && matches[k]!.path === file; k--) n++;
  return n;
}

export const grepTool = defineTool({
  name: "grep",
  title: "Search File Contents",
  description: DESCRIPTION,
  input,
  output,
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "read" });
    if (!target.exists) throw new ToolError(`No such file or directory: ${args.path}`, "not_found");
    const globs = args.glob === undefined ? undefined : Array.isArray(args.glob) ? args.glob : [args.glob];
    const budget = ctx.config.maxOutputBytes;
    let ticks = 0;
    const timer = setInterval(() => {
      void ctx.progress(++ticks, undefined, "searching");
    }, PROGRESS_EVERY_MS);
    let result: Awaited<ReturnType<typeof grep>>;
    try {
      result = await grep({
        root: target.root,
        start: target.real,
        pattern: args.pattern,
        literal: args.literal,
        caseSensitive: args.caseSensitive,
        globs,
        contextLines: args.contextLines,
        maxResults: args.maxResults,
        filesOnly: args.filesOnly,
        gitignore: ctx.config.gitignore,
        signal: ctx.signal,
        budgetBytes: budget,
      });
    } finally {
      clearInterval(timer);
    }
    const isFile = await isFileTarget(target.real);
    const show = (rel: string) => shown(args.path, isFile, rel);
    const reserve = 400;
    let truncated = result.truncated;
    let body: string;
    let { matches } = result;
    let files = result.files.map(show);
    if (args.filesOnly) {
      const lines: string[] = [];
      let used = 0;
      for (const f of files) {
        used += Buffer.byteLength(f) + 1;
        if (used > budget - reserve && lines.length > 0) {
          truncated = true;
          break;
        }
        lines.push(f);
      }
      files = lines;
      body = lines.map(escapeName).join("\n");
    } else {
      const f = formatMatches(matches, show, budget - reserve, args.contextLines > 0);
      if (f.kept < matches.length) {
        matches = matches.slice(0, f.kept);
        truncated = true;
        files = [...new Set(matches.map((m) => show(m.path)))];
      }
      body = f.text;
    }
    if (files.length === 0) body = "No matches found";
    if (truncated) {
      const what = args.filesOnly ? `${files.length} files` : `${matches.length} matches`;
      body +=
        `\n\n[mcpfs: results truncated after ${what}. Narrow the search: a more specific pattern, a glob ` +
        "(e.g. '*.ts'), a subdirectory as path, or filesOnly=true; or raise maxResults.]";
    }
    return textReply(body, {
      matches: matches.map((m) => ({ ...m, path: show(m.path) })),
      files,
      truncated,
    });
  },
});
