import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { appendText } from "../../core/files/append.js";
import { ensureParentDirs } from "../../core/files/mkdirs.js";
import { writeText } from "../../core/files/write.js";
import { printable } from "../../core/paths.js";
import { defineTool, recordChanges, type ToolContext } from "../tool.js";
import { boolOutput, boolReply, gitignoreGate, pyType, requireFilePath, resolveIn } from "./common.js";

/** mcp-workspace writes text with LF line breaks and refuses what UTF-8 cannot encode (lone surrogates). */
function contentText(content: unknown, ctx: ToolContext): string {
  if (content === null || content === undefined) {
    ctx.log.warn("Content is None, treating as empty string");
    return "";
  }
  if (typeof content !== "string") throw new ToolError(`Content must be a string, got ${pyType(content)}`);
  if (/\p{Surrogate}/u.test(content))
    throw new ToolError("Content contains characters that cannot be encoded. Please check the encoding.");
  return content.replace(/\r\n/g, "\n");
}

/** mcpfs: lost-update protection, optional so mcp-workspace's clients are unaffected. */
export const expectedSha256 = z
  .string()
  .optional()
  .describe("sha256 your read returned; refused if the file changed since");

const fileInput = z.object({
  file_path: z.string().describe("Project-relative path"),
  content: z.string().nullable(),
  expected_sha256: expectedSha256,
});

export const saveFileTool = defineTool({
  name: "save_file",
  title: "Save File",
  description: "Create or overwrite a file atomically, creating parent directories.",
  input: fileInput,
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const filePath = requireFilePath(args.file_path);
    const text = contentText(args.content, ctx);
    const target = await resolveIn(ctx, filePath, "write");
    await gitignoreGate(ctx, target, filePath);
    await ensureParentDirs(target);
    recordChanges(ctx, [await writeText(target, text, { expectedSha256: args.expected_sha256 })]);
    return boolReply(true);
  },
});

export const appendFileTool = defineTool({
  name: "append_file",
  title: "Append File",
  description: "Append content to an existing file (to create one, use save_file).",
  input: fileInput,
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const filePath = requireFilePath(args.file_path);
    const text = contentText(args.content, ctx);
    const target = await resolveIn(ctx, filePath, "write");
    await gitignoreGate(ctx, target, filePath);
    try {
      recordChanges(ctx, [await appendText(target, text, { expectedSha256: args.expected_sha256 })]);
    } catch (err) {
      if (err instanceof ToolError && err.code === "not_found")
        throw new ToolError(`File '${printable(filePath)}' does not exist`, "not_found");
      if (err instanceof ToolError && err.code === "not_file")
        throw new ToolError(`Path '${printable(filePath)}' is not a file`, "not_file");
      throw err;
    }
    return boolReply(true);
  },
});
