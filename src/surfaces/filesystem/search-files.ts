import path from "node:path";
import { z } from "zod";
import { byteLength } from "../../core/budget.js";
import { escapeName } from "../../core/paths.js";
import { searchNames } from "../../core/search/name-search.js";
import { defineTool, textReply } from "../tool.js";
import { truncationNote, WALK_TIME_LIMIT_MS } from "./common.js";

export const searchFilesTool = defineTool({
  name: "search_files",
  title: "Search Files",
  description:
    "Find files and directories whose path relative to path matches a glob ('*.ts' there, '**/*.ts' at any depth); returns full paths. Matches names, not contents (use grep). excludePatterns without '/' match at any depth; .git/ and gitignored paths are skipped.",
  input: z.object({
    path: z.string(),
    pattern: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]),
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
    const budget = ctx.config.maxOutputBytes - 512;
    // Every shown path costs at least the start path plus a separator: no need to find more than fit.
    const limit = Math.floor(budget / (dir.real.length + 2)) + 1;
    const r = await searchNames(ctx.ws, dir, {
      pattern: args.pattern,
      excludePatterns: args.excludePatterns,
      gitignore: ctx.config.gitignore,
      limit,
      signal: ctx.signal,
      timeLimitMs: WALK_TIME_LIMIT_MS,
      onProgress: (visited) => void ctx.progress(visited, undefined, "entries visited"),
    });
    const rels = r.rels;
    const lines: string[] = [];
    let bytes = 0;
    for (const rel of rels) {
      const full = escapeName(path.join(dir.real, rel));
      bytes += byteLength(full) + 1;
      if (bytes > budget) break;
      lines.push(full);
    }
    const truncated = r.truncated || lines.length < rels.length;
    let text = lines.length > 0 ? lines.join("\n") : "No matches found";
    if (truncated)
      text += truncationNote(
        `showing ${lines.length} matches; more exist`,
        "Narrow the pattern or search a subdirectory to see the rest.",
      );
    if (r.timedOut)
      text += truncationNote(
        `the search stopped after ${WALK_TIME_LIMIT_MS / 1000} s (${r.visited} entries visited); results are partial`,
        "Search a smaller directory.",
      );
    return textReply(text, {
      matches: rels.slice(0, lines.length),
      count: lines.length,
      truncated,
      timedOut: r.timedOut,
    });
  },
});
