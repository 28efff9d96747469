import { createHash } from "node:crypto";
import { z } from "zod";
import { writeFileAtomic } from "../../core/files/atomic-write.js";
import { defineTool, textReply } from "../tool.js";

export const writeFileTool = defineTool({
  name: "write_file",
  title: "Write File",
  description:
    "Create a new file or completely overwrite an existing file with new content. Use with caution as it " +
    "will overwrite existing files without warning. Handles text content with proper encoding. The write is " +
    "crash-safe (temp file, fsync, rename) and keeps an existing file's permission bits; the parent directory " +
    "must exist (use create_directory). Only works within allowed directories.",
  input: z.object({ path: z.string(), content: z.string() }),
  output: z.object({
    content: z.string(),
    bytes: z.number().optional().describe("bytes written"),
    created: z.boolean().optional().describe("the file did not exist before"),
    sha256: z.string().optional().describe("sha256 of the bytes written"),
  }),
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "write" });
    const bytes = Buffer.from(args.content, "utf8");
    await writeFileAtomic(target, bytes);
    return textReply(`Successfully wrote to ${args.path}`, {
      bytes: bytes.length,
      created: !target.exists,
      sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  },
});
