import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { deleteDirectory } from "../../core/mutate/remove.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, textReply } from "../tool.js";
import { resolveEntry } from "./common.js";

const LIST_CAP = 20;

export const deleteDirectoryTool = defineTool({
  name: "delete_directory",
  title: "Delete Directory",
  description:
    "Delete an empty directory, or with recursive everything in it (links removed, not followed); never an allowed directory itself. Reports what it removed.",
  input: z.object({
    path: z.string(),
    recursive: z.boolean().optional().describe("Also delete everything in it"),
  }),
  output: z.object({
    content: z.string(),
    files: z.number().optional(),
    directories: z.number().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const entry = await resolveEntry(ctx, args.path);
    if (entry.relative === "") throw new ToolError("denied", { reason: "delete_root", path: args.path });
    const removed = await deleteDirectory(entry, args.recursive === true, ctx.signal);
    const dirs = removed.filter((e) => e.isDir).length;
    const files = removed.length - dirs;
    const base = entry.relative;
    ctx.recordMutation({ op: "delete", path: args.path, bytes: 0 });
    const shown = removed.slice(0, LIST_CAP).map((e) => {
      const rel = e.rel === base ? "" : e.rel.slice(base.length + 1);
      return `${e.isDir ? "[DIR] " : "[FILE] "}${escapeName(rel === "" ? args.path : rel)}`;
    });
    if (removed.length > LIST_CAP) shown.push(`... and ${removed.length - LIST_CAP} more`);
    return textReply(
      `Successfully deleted ${escapeName(args.path)} (${files} files, ${dirs} directories):\n${shown.join("\n")}`,
      { files, directories: dirs },
    );
  },
});
