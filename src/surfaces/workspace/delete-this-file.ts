import { z } from "zod";
import { deleteFile } from "../../core/mutate/remove.js";
import { defineTool, recordChanges } from "../tool.js";
import {
  boolOutput,
  boolReply,
  expectedSha256,
  gitignoreGate,
  requireFilePath,
  resolveEntry,
} from "./common.js";

export const deleteThisFileTool = defineTool({
  name: "delete_this_file",
  title: "Delete This File",
  description: "Delete a file (a symlink itself, never its target). Directories: delete_directory.",
  input: z.object({
    file_path: z.string().describe("Project-relative path"),
    expected_sha256: expectedSha256,
  }),
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const filePath = requireFilePath(args.file_path);
    const entry = await resolveEntry(ctx, filePath, "write");
    await gitignoreGate(ctx, entry, filePath);
    recordChanges(ctx, [await deleteFile(entry, { expectedSha256: args.expected_sha256 })]);
    ctx.log.info(`File deleted successfully: ${filePath}`);
    return boolReply(true);
  },
});
