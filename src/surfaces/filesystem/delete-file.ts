import { z } from "zod";
import { deleteFile } from "../../core/mutate/remove.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, recordChanges, textReply } from "../tool.js";
import { expectedSha256, resolveEntry } from "./common.js";

export const deleteFileTool = defineTool({
  name: "delete_file",
  title: "Delete File",
  description: "Delete a file (a symlink itself, never its target). Directories: delete_directory.",
  input: z.object({ path: z.string(), expectedSha256 }),
  output: z.object({ content: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const entry = await resolveEntry(ctx, args.path);
    const r = await deleteFile(entry, { expectedSha256: args.expectedSha256 });
    recordChanges(ctx, [r]);
    return textReply(`Successfully deleted ${escapeName(args.path)}`);
  },
});
