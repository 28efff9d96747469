import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { entryKind } from "../../core/files/remove.js";
import { printable } from "../../core/paths.js";
import { walk } from "../../core/walk.js";
import type { ResolvedPath } from "../../core/workspace.js";
import { defineTool, type ToolContext } from "../tool.js";
import { gitignoreGate, listOutput, listReply, referenceRoot, resolveIn } from "./common.js";
import { renderTree } from "./tree.js";

export const listDirectoryTool = defineTool({
  name: "list_directory",
  title: "List Directory",
  description:
    "List project files as project-relative paths (gitignore applied, .git never listed). Over 250 lines, deep directories collapse to 'dir/ (N files)' and the list is cut with a summary.",
  input: z.object({
    path: z
      .string()
      .default(".")
      .describe('Scope listing to a subtree (relative to project root). Defaults to "."'),
    dirs_only: z.boolean().default(false).describe('Show only directories, each with trailing "/"'),
  }),
  output: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const requested = args.path ?? ".";
    const shown = printable(requested);
    const target = await resolveIn(ctx, requested, "read");
    // The same gate as read_file: an ignored folder, and the inside of .git/, list as empty (as in
    // mcp-workspace, whose walk drops what the rules ignore).
    if (await isGated(ctx, target, requested)) return listReply([]);
    const kind = await entryKind(target);
    if (kind === "file")
      throw new ToolError(`'${shown}' is a file, not a directory. Use read_file() instead.`);
    if (kind === "missing") throw new ToolError(`Directory '${shown}' does not exist`, "not_found");
    if (kind !== "dir") throw new ToolError(`Path '${shown}' is not a directory`, "not_directory");
    const { entries } = await walk({
      root: target.root,
      start: target.real,
      gitignore: true,
      signal: ctx.signal,
      include: (_rel, isDir) => !isDir,
    });
    const files = entries.filter((e) => e.type !== "dir").map((e) => e.rel);
    return listReply(renderTree(files, target.relative, args.dirs_only === true));
  },
});

async function isGated(ctx: ToolContext, target: ResolvedPath, requested: string): Promise<boolean> {
  return gitignoreGate(ctx, target, requested, true).then(
    () => false,
    (err) => {
      if (err instanceof ToolError && err.code === "ignored") return true;
      throw err;
    },
  );
}

export const listReferenceDirectoryTool = defineTool({
  name: "list_reference_directory",
  title: "List Reference Directory",
  description: "List a reference project's files, relative to its root, filtered as list_directory.",
  input: z.object({ reference_name: z.string().describe("Name of the reference project") }),
  output: listOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const root = referenceRoot(ctx, args.reference_name);
    const { entries } = await walk({
      root,
      start: root.real,
      gitignore: true,
      signal: ctx.signal,
      include: (_rel, isDir) => !isDir,
    });
    const files = entries.filter((e) => e.type !== "dir").map((e) => e.rel);
    // Bounded: one reply must stay far below a client's message limit.
    const budget = ctx.config.maxOutputBytes;
    let used = 0;
    let keep = 0;
    for (; keep < files.length; keep++) {
      used += Buffer.byteLength(files[keep]!) + 1;
      if (used > budget) break;
    }
    if (keep === files.length) return listReply(files);
    return listReply([
      ...files.slice(0, keep),
      `... and ${files.length - keep} more files (output capped at ${budget} bytes; use search_reference_files with a glob to narrow)`,
    ]);
  },
});
