import path from "node:path";
import { z } from "zod";
import { ANY_COUNT, type ReplyBudget } from "../../core/budget.js";
import { noSuchPathError } from "../../core/errors.js";
import { escapeName } from "../../core/paths.js";
import { grep, isFileTarget } from "../../core/search/grep.js";
import type { GrepMatch } from "../../core/search/grep-job.js";
import { defineTool, encodingFor, encodingParam, textReply } from "../tool.js";
import { ignoredNote, includeIgnoredParam } from "./common.js";

const DEFAULT_MAX_RESULTS = 500;
const PROGRESS_EVERY_MS = 1000;

const input = z.object({
  path: z.string(),
  pattern: z.string().describe("RE2 regex (no backreferences/lookaround), or text with literal"),
  glob: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("File glob(s) relative to path: '*.ts' any depth, 'src/**/*.py' anchored, '!x' excludes"),
  caseSensitive: z.boolean().optional().default(true),
  literal: z.boolean().optional().describe("pattern is plain text"),
  contextLines: z.number().int().min(0).max(20).optional().default(0).describe("Lines around each match"),
  maxResults: z
    .number()
    .int()
    .min(1)
    .optional()
    .default(DEFAULT_MAX_RESULTS)
    .describe("Most lines (files with filesOnly)"),
  offset: z.number().int().min(0).optional().default(0).describe("Skip this many results (the next page)"),
  filesOnly: z.boolean().optional().describe("List matching files only"),
  includeIgnored: includeIgnoredParam,
  encoding: encodingParam,
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
  "Search a file, or a directory recursively, for a regex or literal text; skips gitignored paths, .git/ and binary files. search_files finds names. Prints each file's path (relative to path) once, then 'line: text' rows ('line- text': context).";

/** How a result path is shown: joined to the path the client gave, so it can be passed straight back. */
function shown(requested: string, isFile: boolean, rel: string): string {
  return isFile ? requested : path.posix.join(requested, rel);
}

/**
 * ripgrep's heading layout: a file's path once, then `line: text` for matches and `line- text` for context,
 * `--` between non-adjacent runs, a blank line between files; a line is printed once even when it is both a
 * match and another match's context. Printing the path once saves a third to a half of the tokens.
 */
function formatMatches(
  matches: GrepMatch[],
  heading: (rel: string) => string,
  budget: ReplyBudget,
  withContext: boolean,
): { text: string; kept: number } {
  const out: string[] = [];
  let kept = 0;
  let i = 0;
  while (i < matches.length) {
    const file = matches[i]!.path;
    const head = escapeName(heading(file));
    const lines = new Map<number, { text: string; hit: boolean }>();
    let stop = false;
    // What a match adds to the reply: its new rows (and, for the file's first match, the heading).
    let cost = `\n${head}\n`;
    const sep = withContext ? "--\n" : "";
    for (; i < matches.length && matches[i]!.path === file; i++) {
      const m = matches[i]!;
      const add = (n: number, text: string, hit: boolean) => {
        const had = lines.get(n);
        if (!had) cost += `${sep}${n}: ${text}\n`;
        if (!had || hit) lines.set(n, { text, hit: hit || (had?.hit ?? false) });
      };
      for (const c of m.before) add(c.line, c.text, false);
      add(m.line, m.text, true);
      for (const c of m.after) add(c.line, c.text, false);
      // The first match is shown whatever its size (the runner's cut is the backstop).
      if (!budget.take(cost) && kept > 0) {
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
      cost = "";
      kept++;
    }
    if (lines.size > 0) {
      if (out.length > 0) out.push("");
      out.push(head);
    }
    let prev = 0;
    for (const n of [...lines.keys()].sort((a, b) => a - b)) {
      if (withContext && prev !== 0 && n > prev + 1) out.push("--");
      const l = lines.get(n)!;
      // A line shown alone loses its indentation (ripgrep's --trim): it says nothing without the lines
      // around it, and costs a model ~5 % of a reply. With context lines the block keeps its shape.
      out.push(l.hit ? `${n}: ${withContext ? l.text : l.text.trimStart()}` : `${n}- ${l.text}`);
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
    if (!target.exists) throw noSuchPathError(args.path);
    const globs = args.glob === undefined ? undefined : Array.isArray(args.glob) ? args.glob : [args.glob];
    const budget = ctx.budget;
    const what = args.filesOnly ? "files" : "matches";
    const first = args.offset + 1;
    const more = (last: number) =>
      `\n\n[mcpfs: ${what} ${first}-${last} shown; more exist. Next page: offset=${last}. ` +
      "Or narrow: glob, a subdirectory as path, or filesOnly=true.]";
    const close = budget.reserve(more(ANY_COUNT));
    const closeIgnored = budget.reserve(`\n\n${ignoredNote(ANY_COUNT)}`);
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
        offset: args.offset,
        filesOnly: args.filesOnly,
        gitignore: ctx.config.gitignore,
        includeIgnored: args.includeIgnored,
        signal: ctx.signal,
        budgetBytes: budget.remaining,
        engine: ctx.config.grepEngine,
        encoding: encodingFor(ctx, args.encoding),
      });
    } finally {
      clearInterval(timer);
    }
    const isFile = await isFileTarget(target.real);
    const show = (rel: string) => shown(args.path, isFile, rel);
    // A file searched alone is headed by the path as given; a directory's files by their path below it.
    const heading = (rel: string) => (isFile ? args.path : rel);
    let truncated = result.truncated;
    let body: string;
    let { matches } = result;
    let rels = args.filesOnly ? result.files : [];
    let shownCount: number;
    if (args.filesOnly) {
      const lines = rels.map((f) => escapeName(heading(f)));
      // The first file is shown whatever its size (the runner's cut is the backstop).
      const kept = Math.max(budget.takeLines(lines), Math.min(1, lines.length));
      if (kept < lines.length) truncated = true;
      rels = rels.slice(0, kept);
      shownCount = kept;
      body = lines.slice(0, kept).join("\n");
    } else {
      const f = formatMatches(matches, heading, budget, args.contextLines > 0);
      if (f.kept < matches.length) {
        matches = matches.slice(0, f.kept);
        truncated = true;
      }
      rels = [...new Set(matches.map((m) => m.path))];
      shownCount = matches.length;
      body = f.text;
    }
    if (shownCount === 0)
      body = args.offset > 0 ? `No matches after offset ${args.offset}` : "No matches found";
    // The continuation stays the reply's last line.
    if (result.ignored > 0) body += closeIgnored(`\n\n${ignoredNote(result.ignored)}`);
    if (truncated) body += close(more(args.offset + shownCount));
    const files = rels.map(show);
    return textReply(body, {
      matches: matches.map((m) => ({ ...m, path: show(m.path) })),
      files,
      truncated,
    });
  },
});
