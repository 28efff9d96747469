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
  .describe(
    "mcpfs: the sha256 that read_file returned for this file (structured reply); the change is refused if the file changed since",
  );

const fileInput = z.object({
  file_path: z.string().describe("Path to the file (relative to project directory)"),
  content: z.string().nullable().describe("Content to write"),
  expected_sha256: expectedSha256,
});

export const saveFileTool = defineTool({
  name: "save_file",
  title: "Save File",
  description:
    "Write a file, creating parent directories as needed. Creates or overwrites; the write is atomic " +
    "(a crash leaves the old or the new file, never a torn one).\n\n" +
    "Args:\n    file_path: Path to the file to write to (relative to project directory)\n" +
    "    content: Content to write to the file\n\nReturns:\n    True if the file was written successfully",
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
  description:
    "Append content to the end of a file. The file must already exist; use save_file to create new files.\n\n" +
    "Args:\n    file_path: Path to the file to append to (relative to project directory)\n" +
    "    content: Content to append to the file\n\nReturns:\n    True if the content was appended successfully",
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
