import path from "node:path";
import { z } from "zod";
import { ANY_COUNT } from "../../core/budget.js";
import { escapeName } from "../../core/paths.js";
import { searchNames } from "../../core/search/name-search.js";
import { defineTool, textReply } from "../tool.js";
import { ignoredNote, includeIgnoredParam, truncationNote, WALK_TIME_LIMIT_MS } from "./common.js";

export const searchFilesTool = defineTool({
  name: "search_files",
  title: "Search Files",
  description:
    "Find files and directories whose path relative to path matches a glob ('*.ts' there, '**/*.ts' at any depth); returns full paths. Matches names, not contents (use grep). excludePatterns without '/' match at any depth; .git/ and gitignored paths skipped.",
  input: z.object({
    path: z.string(),
    pattern: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]),
    includeIgnored: includeIgnoredParam,
  }),
  output: z.object({
    content: z.string(),
    matches: z.array(z.string()).optional().describe("matching paths relative to the search path, as shown"),
    count: z.number().optional().describe("number of matches shown"),
    truncated: z.boolean().optional().describe("more matches exist than fit in the output budget"),
    timedOut: z.boolean().optional().describe("the walk hit its time limit; results are partial"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const dir = await ctx.ws.resolve(args.path, { intent: "read" });
    const budget = ctx.budget;
    // Every shown path costs at least the start path plus a separator: no need to find more than fit.
    const closeIgnored = budget.reserve(`\n${ignoredNote(ANY_COUNT)}`);
    const limit = budget.atMost(dir.real.length + 2) + 1;
    const r = await searchNames(ctx.ws, dir, {
      pattern: args.pattern,
      excludePatterns: args.excludePatterns,
      gitignore: ctx.config.gitignore,
      includeIgnored: args.includeIgnored,
      limit,
      signal: ctx.signal,
      timeLimitMs: WALK_TIME_LIMIT_MS,
      onProgress: (visited) => void ctx.progress(visited, undefined, "entries visited"),
    });
    const rels = r.rels;
    const timeNote = r.timedOut
      ? truncationNote(
          `the search stopped after ${WALK_TIME_LIMIT_MS / 1000} s (${r.visited} entries visited); results are partial`,
          "Search a smaller directory.",
        )
      : "";
    budget.take(timeNote);
    const full = rels.map((rel) => escapeName(path.join(dir.real, rel)));
    const fit = budget.fitLines(
      full,
      (n) =>
        truncationNote(
          `showing ${n} matches; more exist`,
          "Narrow the pattern or search a subdirectory to see the rest.",
        ),
      r.truncated,
    );
    const lines = full.slice(0, fit.kept);
    const truncated = fit.note !== undefined;
    const skipped = r.ignored > 0 ? closeIgnored(`\n${ignoredNote(r.ignored)}`) : "";
    const text =
      (lines.length > 0 ? lines.join("\n") : "No matches found") + skipped + (fit.note ?? "") + timeNote;
    return textReply(text, {
      matches: rels.slice(0, lines.length),
      count: lines.length,
      truncated,
      timedOut: r.timedOut,
    });
  },
});
