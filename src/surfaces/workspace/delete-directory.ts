import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { deleteDirectory } from "../../core/mutate/remove.js";
import { escapeName } from "../../core/paths.js";
import { defineTool } from "../tool.js";
import { gitignoreGate, listOutput, listReply, pyType, resolveEntry } from "./common.js";

const DELETE_LIST_CAP = 20;

export const deleteDirectoryTool = defineTool({
  name: "delete_directory",
  title: "Delete Directory",
  description:
    "Delete a directory: empty, or with recursive everything in it; never the project root. A missing directory is a no-op. Lists what it deleted (first 20). Files: delete_this_file.",
  input: z.object({
    dir_path: z.string().describe("Project-relative path"),
    recursive: z.boolean().default(false).describe("Also delete its contents"),
  }),
  output: listOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const dirPath = args.dir_path;
    if (typeof dirPath !== "string" || dirPath === "")
      throw new ToolError("invalid", {
        reason: "dir_path_type",
        parameter: "dir_path",
        actual: pyType(dirPath),
      });
    const entry = await resolveEntry(ctx, dirPath, "write");
    await gitignoreGate(ctx, entry, dirPath, true);
    if (entry.relative === "")
      throw new ToolError("denied", { reason: "delete_project_root", path: dirPath });
    const rel = entry.relative;
    let deleted: Awaited<ReturnType<typeof deleteDirectory>>;
    try {
      deleted = await deleteDirectory(entry, args.recursive === true);
    } catch (err) {
      // Nothing to delete is an answer, not an error (delete_directory is idempotent in mcp-workspace).
      if (err instanceof ToolError && err.kind === "not_found")
        return listReply([`Directory '${rel}' does not exist — nothing to delete`]);
      throw err;
    }
    ctx.recordMutation({ op: "delete", path: dirPath, bytes: 0 });
    // The first 20 names, fewer when long names would overrun the reply budget; then how many more.
    const dirs = deleted.filter((d) => d.isDir).length;
    const more = (shown: number) =>
      `... and ${deleted.length - shown} more (${deleted.length - dirs} files, ${dirs} dirs deleted total)`;
    const first = deleted.slice(0, DELETE_LIST_CAP);
    const { kept, note } = ctx.budget.fitLines(
      first.map((d) => escapeName(d.rel)),
      more,
      deleted.length > first.length,
    );
    const lines = first.slice(0, kept).map((d) => d.rel);
    if (note !== undefined) lines.push(note);
    return listReply(lines);
  },
});
