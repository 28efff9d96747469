import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { filesUnder, renderTree } from "../../core/listing/file-tree.js";
import { entryKind } from "../../core/mutate/remove.js";
import { hasGitDirSegment } from "../../core/paths.js";
import { namesOf, type ResolvedPath } from "../../core/workspace.js";
import { defineTool, type ToolContext } from "../tool.js";
import { gitignoreGate, listOutput, listReply, resolveIn } from "./common.js";

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
    const target = await resolveIn(ctx, requested, "read");
    // The same gate as read_file: an ignored folder, or .git/, is refused with the reason (mcp-workspace
    // lists it as empty, which reads as "nothing there").
    if (await isGated(ctx, target, requested)) throw ignoredFolderError(target, requested);
    const kind = await entryKind(target);
    if (kind === "file") throw new ToolError("not_directory", { reason: "is_file", path: requested });
    if (kind === "missing") throw new ToolError("not_found", { path: requested });
    if (kind !== "dir") throw new ToolError("not_directory", { path: requested });
    const files = await filesUnder(target.root, target.real, ctx.signal);
    const lines = renderTree(files, target.relative, args.dirs_only === true);
    // Long paths can pass the budget before the 250-line cap: the lines that fit, and what is left.
    const { kept, note } = ctx.budget.fitLines(
      lines,
      (n) =>
        `... and ${lines.length - n} more lines (output capped at ${ctx.budget.limit} bytes). ` +
        "Narrow with path=<subdir> or dirs_only=True.",
    );
    return listReply(note === undefined ? lines : [...lines.slice(0, kept), note]);
  },
});

function ignoredFolderError(target: ResolvedPath, requested: string): ToolError {
  const git = hasGitDirSegment(target.relative, namesOf(target.root).foldsCase);
  return new ToolError("ignored", { reason: git ? "list_git_dir" : "list_ignored_dir", path: requested });
}

async function isGated(ctx: ToolContext, target: ResolvedPath, requested: string): Promise<boolean> {
  return gitignoreGate(ctx, target, requested, true).then(
    () => false,
    (err) => {
      if (err instanceof ToolError && err.kind === "ignored") return true;
      throw err;
    },
  );
}
