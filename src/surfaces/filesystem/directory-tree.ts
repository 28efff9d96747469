import { z } from "zod";
import { byteLength } from "../../core/budget.js";
import { comparePaths, compileExcludes } from "../../core/files/exclude.js";
import { describeLink } from "../../core/files/listing.js";
import { type WalkEntry, walk } from "../../core/walk.js";
import { defineTool, textReply } from "../tool.js";
import { WALK_TIME_LIMIT_MS } from "./search-files.js";

interface TreeNode {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  target?: string;
  children?: TreeNode[];
  truncated?: boolean;
}

/** Upper bound on entries walked for one tree (the reply keeps only what fits the budget anyway). */
const MAX_WALK_ENTRIES = 1_000_000;

function nodeType(t: WalkEntry["type"]): TreeNode["type"] {
  return t === "dir" ? "directory" : t;
}

/** Bytes an entry adds to 2-space-indented JSON, slightly over-estimated. */
function cost(e: WalkEntry, name: string): number {
  const indent = 4 * e.depth;
  return byteLength(JSON.stringify(name)) + 3 * indent + (e.type === "dir" ? 70 : 40);
}

function build(
  entries: readonly WalkEntry[],
  kept: ReadonlySet<string>,
  links: Map<string, string>,
): TreeNode[] {
  const top: TreeNode[] = [];
  const dirs = new Map<string, TreeNode>();
  const ordered = entries.filter((e) => kept.has(e.rel)).sort((a, b) => comparePaths(a.rel, b.rel));
  for (const e of ordered) {
    const slash = e.rel.lastIndexOf("/");
    const name = e.rel.slice(slash + 1);
    const node: TreeNode = { name, type: nodeType(e.type) };
    const target = links.get(e.rel);
    if (target !== undefined) node.target = target;
    if (e.type === "dir") {
      node.children = [];
      dirs.set(e.rel, node);
    }
    const parent = slash === -1 ? undefined : dirs.get(e.rel.slice(0, slash));
    (parent ? parent.children! : top).push(node);
  }
  return top;
}

export const directoryTreeTool = defineTool({
  name: "directory_tree",
  title: "Directory Tree",
  description:
    "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', " +
    "'type' (file/directory/symlink), and 'children' for directories. Files have no children array, while " +
    "directories always have a children array (which may be empty). Symlinks are not followed; 'target' is " +
    "given when it lies inside the allowed directories. The output is formatted with 2-space indentation for " +
    "readability. Use maxDepth to limit the depth; excludePatterns without a '/' match at any depth. Paths " +
    "ignored by .gitignore files, and .git/, are skipped. A tree larger than the output budget keeps its top " +
    'levels; directories whose contents were left out carry "truncated": true. Only works within allowed ' +
    "directories.",
  input: z.object({
    path: z.string(),
    excludePatterns: z.array(z.string()).optional().default([]),
    maxDepth: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("How many levels to descend (1 = direct children only); default unlimited"),
  }),
  output: z.object({
    content: z.string(),
    entries: z.number().optional().describe("entries shown"),
    totalEntries: z.number().optional().describe("entries found by the walk"),
    truncated: z.boolean().optional().describe("some entries were left out to fit the output budget"),
    timedOut: z.boolean().optional().describe("the walk hit its time limit; the tree is partial"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const dir = await ctx.ws.resolve(args.path, { intent: "read" });
    const r = await walk({
      root: dir.root,
      start: dir.real,
      gitignore: ctx.config.gitignore,
      maxDepth: args.maxDepth,
      exclude: compileExcludes(args.excludePatterns),
      limit: MAX_WALK_ENTRIES,
      signal: ctx.signal,
      timeLimitMs: WALK_TIME_LIMIT_MS,
      onProgress: (visited) => void ctx.progress(visited, undefined, "entries visited"),
    });
    // Breadth first: the budget keeps whole top levels rather than one deep branch.
    const byLevel = [...r.entries].sort((a, b) => a.depth - b.depth || comparePaths(a.rel, b.rel));
    const links = new Map<string, string>();
    const budget = ctx.config.maxOutputBytes;
    let kept = new Set<string>();
    let bytes = 4;
    let cut = byLevel.length;
    for (let i = 0; i < byLevel.length; i++) {
      const e = byLevel[i]!;
      bytes += cost(e, e.rel.slice(e.rel.lastIndexOf("/") + 1));
      if (bytes > budget) {
        cut = i;
        break;
      }
      kept.add(e.rel);
    }
    // Symlink targets, only for links shown and only when they stay inside the roots.
    for (const e of byLevel.slice(0, cut)) {
      if (e.type !== "symlink") continue;
      const link = await describeLink(ctx.ws, e.real);
      if (link) links.set(e.rel, link.info.target);
    }
    let tree = build(r.entries, kept, links);
    let text = JSON.stringify(markTruncated(tree, r.entries, kept), null, 2);
    // The estimate is generous; should it ever fall short, drop the deepest entries until the text fits.
    while (byteLength(text) > budget && cut > 0) {
      cut = Math.floor(cut * 0.9);
      kept = new Set(byLevel.slice(0, cut).map((e) => e.rel));
      tree = build(r.entries, kept, links);
      text = JSON.stringify(markTruncated(tree, r.entries, kept), null, 2);
    }
    return textReply(text, {
      entries: kept.size,
      totalEntries: r.entries.length,
      truncated: kept.size < r.entries.length || r.truncated,
      timedOut: r.timedOut,
    });
  },
});

/** Flags each shown directory that has children left out. */
function markTruncated(tree: TreeNode[], all: readonly WalkEntry[], kept: ReadonlySet<string>): TreeNode[] {
  if (kept.size === all.length) return tree;
  const cutParents = new Set<string>();
  for (const e of all) {
    if (kept.has(e.rel)) continue;
    const slash = e.rel.lastIndexOf("/");
    if (slash !== -1) cutParents.add(e.rel.slice(0, slash));
  }
  const visit = (nodes: TreeNode[], prefix: string) => {
    for (const n of nodes) {
      if (!n.children) continue;
      const rel = prefix === "" ? n.name : `${prefix}/${n.name}`;
      if (cutParents.has(rel)) n.truncated = true;
      visit(n.children, rel);
    }
  };
  visit(tree, "");
  return tree;
}
