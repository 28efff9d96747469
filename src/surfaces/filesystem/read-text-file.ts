import { z } from "zod";
import { readTextFile } from "../../core/files/read.js";
import { defineTool, type ToolContext, textReply } from "../tool.js";
import { truncationNote } from "./format.js";

const input = z.object({
  path: z.string(),
  tail: z.number().optional().describe("If provided, returns only the last N lines of the file"),
  head: z.number().optional().describe("If provided, returns only the first N lines of the file"),
});

const output = z.object({
  content: z.string(),
  size: z.number().optional().describe("size of the file in bytes"),
  truncated: z.boolean().optional().describe("true when the reply was cut to fit the output budget"),
  lines: z.number().optional().describe("number of lines returned"),
  more: z.boolean().optional().describe("head/tail: the file has lines beyond those returned"),
  sha256: z.string().optional().describe("sha256 of the file's bytes (whole-file reads only)"),
  mtime: z.string().optional().describe("last modification time, ISO 8601"),
});

const DESCRIPTION =
  "Read the complete contents of a file from the file system as text (UTF-8). Use this tool when you need " +
  "to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a " +
  "file, or the 'tail' parameter to read only the last N lines of a file (both positive whole numbers). " +
  "Operates on the file as text regardless of extension. Replies are bounded: a file larger than the output " +
  "budget is returned truncated, with a note saying how to read the rest. Only works within allowed directories.";

function countLines(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < text.length - 1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

async function handler(args: z.infer<typeof input>, ctx: ToolContext) {
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  const budget = ctx.config.maxOutputBytes;
  // Room for the truncation note.
  const r = await readTextFile(target, {
    head: args.head,
    tail: args.tail,
    budget: Math.max(1, budget - 400),
  });
  let text = r.text;
  const lines = countLines(text);
  if (r.truncated) {
    if (args.tail !== undefined) {
      const note = truncationNote(
        `only the last ${lines} of the ${args.tail} requested lines fit in ${budget} bytes`,
        `Ask for fewer lines (tail: ${lines}), or read earlier parts with head.`,
      );
      text = `${note.slice(1)}\n${text}`;
    } else if (args.head !== undefined) {
      text += truncationNote(
        `only the first ${lines} of the ${args.head} requested lines fit in ${budget} bytes`,
        `Ask for fewer lines (head: ${lines}); read the end with tail.`,
      );
    } else {
      const nl = text.lastIndexOf("\n");
      if (nl > 0) text = text.slice(0, nl + 1);
      const shown = Buffer.byteLength(text);
      text += truncationNote(
        `the file has ${r.size} bytes; showing the first ${shown} bytes (lines 1-${countLines(text)}), ` +
          `the output budget is ${budget} bytes`,
        `Read it in parts: head: N for the first N lines, tail: N for the last N lines; ` +
          "use search_files to find a narrower file.",
      );
    }
  }
  return textReply(text, {
    size: r.size,
    truncated: r.truncated,
    lines,
    ...(r.more !== undefined ? { more: r.more } : {}),
    ...(r.sha256 ? { sha256: r.sha256 } : {}),
    ...(r.mtimeMs !== undefined ? { mtime: new Date(r.mtimeMs).toISOString() } : {}),
  });
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
