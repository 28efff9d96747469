import { z } from "zod";
import { ANY_COUNT } from "../../core/budget.js";
import { budgetedTree, MAX_WALK_ENTRIES } from "../../core/listing/budgeted-tree.js";
import { compileExcludes } from "../../core/search/exclude.js";
import { defineTool, textReply } from "../tool.js";
import { ignoredNote, includeIgnoredParam, WALK_TIME_LIMIT_MS } from "./common.js";

/** What a cut tree leaves out and how to see the rest, or undefined when the tree is whole. */
function capNote(
  shown: number,
  total: number,
  stats: { stopped: boolean; timedOut: boolean; visited: number },
  firstLeftDepth: number | undefined,
): string | undefined {
  const parts: string[] = [];
  const narrow = "Pass a subdirectory as path, a smaller maxDepth, or excludePatterns to see the rest.";
  if (stats.stopped)
    parts.push(
      `the walk stopped after ${MAX_WALK_ENTRIES.toLocaleString("en-US")} entries; the tree and its totals are partial`,
    );
  if (stats.timedOut)
    parts.push(
      `the walk stopped after ${WALK_TIME_LIMIT_MS / 1000} s (${stats.visited} entries visited); the tree is partial`,
    );
  if (shown < total) {
    const levels = firstLeftDepth && firstLeftDepth > 1 ? ` (levels 1–${firstLeftDepth - 1} whole)` : "";
    parts.push(
      `showing ${shown} of ${total} entries${levels}; directories marked "truncated": true hold more`,
    );
  }
  if (parts.length === 0) return undefined;
  return `[mcpfs: output truncated: ${parts.join("; ")}. ${narrow}]`;
}

export const directoryTreeTool = defineTool({
  name: "directory_tree",
  title: "Directory Tree",
  description:
    'A directory\'s subtree as indented JSON: {name, type, children} (symlinks not followed; .git/ and gitignored paths skipped). A tree too big for one reply keeps its top levels, cut directories marked "truncated": true.',
  input: z.object({
    path: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]),
    maxDepth: z.number().int().min(1).optional().describe("Levels to descend (1 = children only)"),
    includeIgnored: includeIgnoredParam,
  }),
  output: z.object({
    content: z.string(),
    entries: z.number().optional().describe("entries shown"),
    totalEntries: z.number().optional().describe("entries found by the walk"),
    truncated: z.boolean().optional().describe("some entries were left out to fit the output budget"),
    timedOut: z.boolean().optional().describe("the walk hit its time limit; the tree is partial"),
    note: z
      .string()
      .optional()
      .describe(
        "what was left out (budget, entry cap, time limit, ignored entries) and how to see it; also a second text block",
      ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const dir = await ctx.ws.resolve(args.path, { intent: "read" });
    // Room is held for the note that says what was left out, at its widest.
    const budget = ctx.budget;
    const every = { stopped: true, timedOut: true, visited: ANY_COUNT };
    const close = budget.reserve(
      `${capNote(ANY_COUNT - 1, ANY_COUNT, every, ANY_COUNT)!}\n${ignoredNote(ANY_COUNT)}`,
    );
    const tree = await budgetedTree(
      ctx.ws,
      {
        root: dir.root,
        start: dir.real,
        gitignore: ctx.config.gitignore,
        includeIgnored: args.includeIgnored,
        maxDepth: args.maxDepth,
        exclude: compileExcludes(args.excludePatterns),
        signal: ctx.signal,
        timeLimitMs: WALK_TIME_LIMIT_MS,
        breadthFirst: true,
        onProgress: (visited) => void ctx.progress(visited, undefined, "entries visited"),
      },
      budget,
    );
    const { shown, total, stats } = tree;
    const cap = capNote(shown, total, stats, tree.firstLeftDepth);
    const parts = [cap, ignoredNote(stats.ignored)].filter((p) => p !== undefined && p !== "");
    const note = parts.length === 0 ? undefined : close(parts.join("\n"));
    const reply = textReply(tree.json, {
      entries: shown,
      totalEntries: total,
      truncated: shown < total || stats.stopped,
      timedOut: stats.timedOut,
      ...(note ? { note } : {}),
    });
    // The note is a block of its own: the first block stays the JSON tree a client parses.
    if (note) reply.content.push({ type: "text", text: note });
    return reply;
  },
});
