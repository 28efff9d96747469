import { z } from "zod";
import { ANY_COUNT, widest } from "../../core/budget.js";
import { ToolError } from "../../core/errors.js";
import { numberLines } from "../../core/text/number.js";
import { readLineRange, textsOf } from "../../core/text/read-file.js";
import type { Root } from "../../core/workspace.js";
import { defineTool, encodingFor, encodingParam, type ToolContext, type ToolReply } from "../tool.js";
import { gitignoreGate, requireFilePath, resolveIn, strReply } from "./common.js";

export const lineRangeShape = {
  start_line: z.number().nullable().optional().describe("First line (1-based); needs end_line"),
  end_line: z.number().nullable().optional().describe("Last line (inclusive); needs start_line"),
  with_line_numbers: z
    .boolean()
    .nullable()
    .optional()
    .describe("Number the lines (default: only for slices)"),
  with_hash: z
    .boolean()
    .nullable()
    .optional()
    .describe("With a slice or cut read of a file over 256 KiB, also return the whole file's sha256"),
  encoding: encodingParam,
};

export interface ReadArgs {
  file_path: string;
  start_line?: number | null;
  end_line?: number | null;
  with_line_numbers?: boolean | null;
  with_hash?: boolean | null;
  encoding?: string;
}

/** mcp-workspace's range rules, checked before the file is touched. */
function checkRange(start: number | null | undefined, end: number | null | undefined): boolean {
  const hasStart = start !== undefined && start !== null;
  const hasEnd = end !== undefined && end !== null;
  if (hasStart !== hasEnd) throw new ToolError("invalid", { reason: "line_range_pair" });
  if (!hasStart) return false;
  if (!Number.isInteger(start) || !Number.isInteger(end))
    throw new ToolError("invalid", { reason: "line_range_integers" });
  if (start! < 1 || end! < 1) throw new ToolError("invalid", { reason: "line_range_min" });
  if (end! < start!)
    throw new ToolError("invalid", {
      reason: "range_reversed",
      parameter: "end_line",
      actual: end!,
      name: "start_line",
      limit: start!,
    });
  return true;
}

/** Shared by read_file (project, gitignore gate) and read_reference_file (a reference root). */
/** What `readForTool` answers: the text, and the version read (read_file and read_reference_file). */
export const readOutput = z.object({
  result: z.string(),
  sha256: z
    .string()
    .optional()
    .describe(
      "sha256 of the whole file read — on complete reads, on slices of files up to 256 KiB, and with " +
        "with_hash: pass it as expected_sha256 to a later change",
    ),
  mtime: z.string().optional().describe("last modification time of the file read, ISO 8601 (every read)"),
  size: z.number().optional().describe("size of the file read in bytes (every read)"),
});

const moreNote = (limit: number, next: number) =>
  `\n[mcpfs: output truncated at ${limit} bytes. Read on with start_line=${next} and end_line ` +
  `(e.g. end_line=${next + 999}).]`;

const cutLineNote = (limit: number, first: number, shown: number) =>
  `\n[mcpfs: line ${first} is longer than the output budget (${limit} bytes); showing its first ` +
  `${shown} bytes. Read on with start_line=${first + 1} and end_line ` +
  `(e.g. end_line=${first + 1000}); search inside the line with search_files.]`;

/** The wider of the two notes, with the widest numbers they can show. */
const widestNote = (limit: number, first: number) =>
  widest([moreNote(limit, ANY_COUNT), cutLineNote(limit, first, ANY_COUNT)]);

export async function readForTool(
  ctx: ToolContext,
  args: ReadArgs,
  base: Root | undefined,
  gate: boolean,
): Promise<ToolReply> {
  const filePath = requireFilePath(args.file_path);
  const target = await resolveIn(ctx, filePath, "read", base);
  if (gate) await gitignoreGate(ctx, target, filePath);
  const ranged = checkRange(args.start_line, args.end_line);
  const budget = ctx.budget;
  const first = ranged ? args.start_line! : 1;
  // The note that says how to read on, held at its widest.
  const close = budget.reserve(widestNote(budget.limit, first));
  const r = await readLineRange(target, {
    start: first,
    end: ranged ? args.end_line! : undefined,
    maxBytes: Math.max(1, budget.remaining),
    hash: args.with_hash === true,
    encoding: encodingFor(ctx, args.encoding),
  });
  // A whole read: remembered, so a later refused change can show what changed since this version.
  const texts = textsOf(r.lines);
  const lastNewline = r.lines.length > 0 && r.lines[r.lines.length - 1]!.eol !== "";
  if (!ranged && !r.truncated && r.state?.sha256)
    ctx.reads.remember(r.state.sha256, texts.join("\n") + (lastNewline ? "\n" : ""));
  const numbered = args.with_line_numbers ?? ranged;
  const lines = numbered ? numberLines(texts, first) : texts;
  // Numbers widen the lines read: those that still fit are kept, whole.
  const kept = r.cutLine ? lines.length : Math.max(budget.takeLines(lines), Math.min(1, lines.length));
  const truncated = r.truncated || kept < lines.length;
  // A cut stops at a line boundary: the last line kept ended with its break.
  const endsLine = r.cutLine ? false : r.truncated || lastNewline;
  let text = lines.slice(0, kept).join("\n") + (endsLine && kept > 0 ? "\n" : "");
  if (r.cutLine) text += close(cutLineNote(budget.limit, first, budget.sizeOf(texts[0]!)));
  else if (truncated) text += close(moreNote(budget.limit, first + kept));
  // mcpfs: the version read, to pass as expected_sha256 to a later change (lost-update protection).
  const reply = strReply(text);
  if (r.state)
    reply.structuredContent = {
      ...reply.structuredContent,
      ...(r.state.sha256 ? { sha256: r.state.sha256 } : {}),
      mtime: r.state.mtime,
      size: r.state.size,
    };
  return reply;
}

export const readFileTool = defineTool({
  name: "read_file",
  title: "Read File",
  description: "Read a project file, or lines start_line..end_line of it (numbered by default when sliced).",
  input: z.object({
    file_path: z.string().describe("Project-relative path"),
    ...lineRangeShape,
  }),
  output: readOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  handler: (args, ctx) => readForTool(ctx, args, undefined, true),
});
