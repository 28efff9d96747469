import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import type { ReadState } from "../../core/files/hash.js";
import { readTextFile } from "../../core/files/read.js";
import { readRangeWithState } from "../../core/files/read-range.js";
import { defineTool, type ToolContext, textReply } from "../tool.js";
import { truncationNote } from "./format.js";

const input = z.object({
  path: z.string(),
  tail: z.number().optional().describe("If provided, returns only the last N lines of the file"),
  head: z.number().optional().describe("If provided, returns only the first N lines of the file"),
  startLine: z
    .number()
    .optional()
    .describe(
      "mcpfs: first line to return (1-based, inclusive); the reply says which lines it holds of how many",
    ),
  endLine: z
    .number()
    .optional()
    .describe("mcpfs: last line to return (1-based, inclusive; default: to the end)"),
  lineNumbers: z.boolean().optional().describe("mcpfs: prefix each line with its line number and '→'"),
  hash: z
    .boolean()
    .optional()
    .describe(
      "mcpfs: also return the sha256 of the whole file with head/tail/startLine on a file over 256 KiB " +
        "(reads every byte; whole reads and smaller files always carry it)",
    ),
});

const output = z.object({
  content: z.string(),
  size: z.number().optional().describe("size of the file in bytes"),
  truncated: z.boolean().optional().describe("true when the reply was cut to fit the output budget"),
  lines: z.number().optional().describe("number of lines returned"),
  more: z.boolean().optional().describe("head/tail: the file has lines beyond those returned"),
  sha256: z
    .string()
    .optional()
    .describe(
      "sha256 of the whole file read — on whole reads, on head/tail/line ranges of files up to 256 KiB, and " +
        "when hash: true was given: pass it as expectedSha256 to a later change",
    ),
  mtime: z.string().optional().describe("last modification time of the file read, ISO 8601 (every reply)"),
  totalLines: z
    .number()
    .optional()
    .describe("lines in the file (when known without reading far past the lines returned)"),
  startLine: z.number().optional().describe("first line returned (line-range reads)"),
  endLine: z.number().optional().describe("last line returned (line-range reads; startLine-1 when none)"),
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

function number(lines: string[], first: number): string[] {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}→${l}`);
}

function stateFields(state: ReadState | undefined): Record<string, unknown> {
  if (!state) return {};
  return {
    ...(state.sha256 ? { sha256: state.sha256 } : {}),
    mtime: state.mtime,
    ...(state.totalLines !== undefined ? { totalLines: state.totalLines } : {}),
  };
}

/** mcpfs's line-range read: `[mcpfs: lines A-B of N]` after the lines. */
async function readRange(args: z.infer<typeof input>, ctx: ToolContext) {
  if (args.head !== undefined || args.tail !== undefined)
    throw new ToolError("Cannot combine startLine/endLine with head or tail");
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  const budget = ctx.config.maxOutputBytes;
  const start = args.startLine ?? 1;
  const r = await readRangeWithState(target, {
    start,
    end: args.endLine,
    maxBytes: Math.max(1, budget - 400),
    hash: args.hash,
  });
  const last = start + r.lines.length - 1;
  const total = r.state?.totalLines;
  let text = (args.lineNumbers ? number(r.lines, start) : r.lines).join("\n");
  const of = total !== undefined ? ` of ${total}` : r.more ? "; more follow" : "";
  if (r.lines.length === 0)
    text = `[mcpfs: no lines from line ${start}; the file has ${total ?? "fewer"} lines]`;
  else if (r.cutLine)
    text += `\n[mcpfs: line ${start} is longer than the output budget (${budget} bytes); showing its first ${Buffer.byteLength(r.lines[0]!)} bytes. Read on with startLine=${start + 1}; search inside the line with grep.]`;
  else if (r.truncated)
    text += `\n[mcpfs: lines ${start}-${last}${of}; output truncated at ${budget} bytes. Read on with startLine=${last + 1}.]`;
  else text += `\n[mcpfs: lines ${start}-${last}${of}]`;
  return textReply(text, {
    size: r.state?.size,
    truncated: r.truncated,
    lines: r.lines.length,
    startLine: start,
    endLine: last,
    ...stateFields(r.state),
  });
}

async function handler(args: z.infer<typeof input>, ctx: ToolContext) {
  if (args.startLine !== undefined || args.endLine !== undefined) return readRange(args, ctx);
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  const budget = ctx.config.maxOutputBytes;
  // Room for the truncation note.
  const r = await readTextFile(target, {
    head: args.head,
    tail: args.tail,
    budget: Math.max(1, budget - 400),
    withState: true,
    hash: args.hash,
    countLines: args.tail !== undefined && args.lineNumbers === true,
  });
  // A whole read: remembered, so a later refused change can show what changed since this version.
  if (r.sha256 && !r.truncated && args.head === undefined && args.tail === undefined)
    ctx.reads.remember(r.sha256, r.text);
  let text = r.text;
  const lines = countLines(text);
  if (args.lineNumbers && text !== "") {
    const all = text.split("\n");
    const trailing = all[all.length - 1] === "" ? all.pop() !== undefined : false;
    const total = r.state?.totalLines;
    const first = args.tail !== undefined ? (total !== undefined ? total - all.length + 1 : undefined) : 1;
    if (first !== undefined) text = number(all, first).join("\n") + (trailing ? "\n" : "");
  }
  if (r.cutLine) {
    const shown = Buffer.byteLength(r.text);
    if (args.tail !== undefined) {
      const note = truncationNote(
        `the last line is longer than the output budget (${budget} bytes); showing its last ${shown} bytes`,
        "Read its start with head: 1; search inside it with grep.",
      );
      text = `${note.slice(1)}\n${text}`;
    } else
      text += truncationNote(
        `line 1 is longer than the output budget (${budget} bytes); showing its first ${shown} bytes`,
        "Read the end of the file with tail; search inside the line with grep.",
      );
  } else if (r.truncated) {
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
    ...stateFields(r.state),
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
