import { z } from "zod";
import { readTextFile } from "../../core/files/read.js";
import { defineTool, type ToolContext, textReply } from "../tool.js";

const input = z.object({
  path: z.string(),
  tail: z.number().optional().describe("If provided, returns only the last N lines of the file"),
  head: z.number().optional().describe("If provided, returns only the first N lines of the file"),
});

const output = z.object({
  content: z.string(),
  size: z.number().optional().describe("size of the file in bytes"),
  truncated: z.boolean().optional().describe("true when the reply was cut to fit the output budget"),
});

const DESCRIPTION =
  "Read the complete contents of a file from the file system as text. Handles various text encodings and " +
  "provides detailed error messages if the file cannot be read. Use this tool when you need to examine the " +
  "contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the " +
  "'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of " +
  "extension. Only works within allowed directories.";

async function handler(args: z.infer<typeof input>, ctx: ToolContext) {
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  const r = await readTextFile(target, {
    head: args.head,
    tail: args.tail,
    budget: ctx.config.maxOutputBytes,
  });
  let text = r.text;
  if (r.truncated) {
    text +=
      `\n\n[mcpfs: output truncated at ${ctx.config.maxOutputBytes} bytes; the file has ${r.size} bytes. ` +
      "Read the rest with head/tail or a line range (startLine/endLine).]";
  }
  return textReply(text, { size: r.size, truncated: r.truncated });
}

export const readTextFileTool = defineTool({
  name: "read_text_file",
  title: "Read Text File",
  description: DESCRIPTION,
  input,
  output,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler,
});

export const readFileTool = defineTool({
  name: "read_file",
  title: "Read File (Deprecated)",
  description: "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
  input,
  output,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler,
});
