import { z } from "zod";
import { ANY_COUNT, widest } from "../../core/budget.js";
import { ToolError } from "../../core/errors.js";
import type { ReadState } from "../../core/text/file-hash.js";
import { countLines, linesOf } from "../../core/text/lines.js";
import { numberLines } from "../../core/text/number.js";
import { readLineRange, readTextFile, textsOf } from "../../core/text/read-file.js";
import { defineTool, encodingFor, encodingParam, type ToolContext, textReply } from "../tool.js";
import { truncationNote } from "./common.js";

const input = z.object({
  path: z.string(),
  tail: z.number().optional().describe("Only the last N lines"),
  head: z.number().optional().describe("Only the first N lines"),
  startLine: z.number().optional().describe("First line of a range (1-based)"),
  endLine: z.number().optional().describe("Last line of the range (default: the end)"),
  lineNumbers: z.boolean().optional().describe("Prefix each line with its number"),
  hash: z
    .boolean()
    .optional()
    .describe("With head/tail/startLine on a file over 256 KiB, also return the whole file's sha256"),
  encoding: encodingParam,
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
  "Read a text file. For part of it use head/tail or startLine/endLine; a file too long for one reply is cut with a note naming the next startLine. To find text, use grep.";

function stateFields(state: ReadState | undefined): Record<string, unknown> {
  if (!state) return {};
  return {
    ...(state.sha256 ? { sha256: state.sha256 } : {}),
    mtime: state.mtime,
    ...(state.totalLines !== undefined ? { totalLines: state.totalLines } : {}),
  };
}

/** A range read whose first line alone is longer than the budget: `shown` bytes of it are shown. */
const longLineNote = (budget: number, start: number, shown: number) =>
  `\n[mcpfs: line ${start} is longer than the output budget (${budget} bytes); showing its first ${shown} bytes. Read on with startLine=${start + 1}; search inside the line with grep.]`;

/** A range read cut at the budget after line `last` (`of`: " of N", "; more follow" or ""). */
const rangeCutNote = (budget: number, start: number, last: number, of: string) =>
  `\n[mcpfs: lines ${start}-${last}${of}; output truncated at ${budget} bytes. Read on with startLine=${last + 1}.]`;

/** mcpfs's line-range read: the lines, and a note saying how to go on only when the reply is cut. */
async function readRange(args: z.infer<typeof input>, ctx: ToolContext) {
  if (args.head !== undefined || args.tail !== undefined)
    throw new ToolError("invalid", { reason: "range_with_head_tail" });
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  for (const [name, v] of [
    ["startLine", args.startLine],
    ["endLine", args.endLine],
  ] as const)
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new ToolError("invalid", {
        reason: "line_number",
        path: target.requested,
        parameter: name,
        actual: v,
      });
  const budget = ctx.budget.limit;
  const start = args.startLine ?? 1;
  if (args.endLine !== undefined && args.endLine < start)
    throw new ToolError("invalid", {
      reason: "range_reversed",
      parameter: "endLine",
      actual: args.endLine,
      name: "startLine",
      limit: start,
    });
  const close = ctx.budget.reserve(
    widest([
      longLineNote(budget, start, ANY_COUNT),
      rangeCutNote(budget, start, ANY_COUNT, ` of ${ANY_COUNT}`),
    ]),
  );
  const r = await readLineRange(target, {
    start,
    end: args.endLine,
    maxBytes: ctx.budget.remaining,
    hash: args.hash,
    encoding: encodingFor(ctx, args.encoding),
  });
  const texts = textsOf(r.lines);
  const shown = args.lineNumbers ? numberLines(texts, start) : texts;
  // Numbers widen the lines read: the lines that still fit are kept, whole.
  const kept = r.cutLine ? shown.length : Math.max(ctx.budget.takeLines(shown), Math.min(1, shown.length));
  const truncated = r.truncated || kept < shown.length;
  const last = start + kept - 1;
  const total = r.state?.totalLines;
  let text = shown.slice(0, kept).join("\n");
  const of = total !== undefined ? ` of ${total}` : r.more ? "; more follow" : "";
  if (r.lines.length === 0)
    text = `[mcpfs: no lines from line ${start}; the file has ${total ?? "fewer"} lines]`;
  else if (r.cutLine) text += close(longLineNote(budget, start, ctx.budget.sizeOf(texts[0]!)));
  else if (truncated) text += close(rangeCutNote(budget, start, last, of));
  // Lines that fit get no note: the same lines read whole, by head or by range are the same text (where
  // they sit is in startLine/endLine/totalLines); only a cut reply says how to go on.
  return textReply(text, {
    size: r.state?.size,
    truncated,
    lines: kept,
    startLine: start,
    endLine: last,
    ...stateFields(r.state),
  });
}

/** What a cut whole, head or tail read says: what it shows and the one parameter that gets the next part. */
function readNote(
  args: z.infer<typeof input>,
  budget: number,
  f: { cutLine: boolean; nl: boolean; shown: number; lines: number; total: number | undefined; size: number },
): string {
  const { shown, lines } = f;
  if (f.cutLine) {
    if (args.tail !== undefined)
      return truncationNote(
        `the last line is longer than the output budget (${budget} bytes); showing its last ${shown} bytes`,
        "Read its start with head: 1; search inside it with grep.",
      );
    return truncationNote(
      `line 1 is longer than the output budget (${budget} bytes); showing its first ${shown} bytes`,
      "Read the end of the file with tail; search inside the line with grep.",
    );
  }
  // A cut reply ends with the one parameter that gets the next part, with nothing skipped or repeated.
  if (args.tail !== undefined) {
    const total = f.total;
    const earlier =
      total !== undefined && total - lines >= 1
        ? `Earlier lines: startLine=${Math.max(1, total - args.tail + 1)}, endLine=${total - lines}.`
        : "Earlier lines: startLine/endLine.";
    return truncationNote(
      `only the last ${lines} of the ${args.tail} requested lines fit in ${budget} bytes`,
      earlier,
    );
  }
  return truncationNote(
    args.head !== undefined
      ? `only the first ${lines} of the ${args.head} requested lines fit in ${budget} bytes`
      : `the file has ${f.size} bytes; lines 1-${lines} fit in ${budget} bytes`,
    f.nl
      ? `Read on with startLine=${lines + 1}.`
      : "Line 1 alone is longer than the reply budget; find what you need in it with grep.",
  );
}

/** The truncation note of a whole, head or tail read at its widest: the room a reply holds for it. */
function widestReadNote(args: z.infer<typeof input>, budget: number): string {
  return widest(
    [true, false].flatMap((cutLine) =>
      [true, false].map((nl) =>
        readNote(args, budget, {
          cutLine,
          nl,
          shown: ANY_COUNT,
          // Lines shown and lines before them, both at their widest.
          lines: Math.floor(ANY_COUNT / 2),
          total: ANY_COUNT,
          size: ANY_COUNT,
        }),
      ),
    ),
  );
}

async function handler(args: z.infer<typeof input>, ctx: ToolContext) {
  if (args.startLine !== undefined || args.endLine !== undefined) return readRange(args, ctx);
  const target = await ctx.ws.resolve(args.path, { intent: "read" });
  const budget = ctx.budget.limit;
  const close = ctx.budget.reserve(widestReadNote(args, budget));
  const r = await readTextFile(target, {
    head: args.head,
    tail: args.tail,
    budget: ctx.budget.remaining,
    withState: true,
    hash: args.hash,
    countLines: args.tail !== undefined && args.lineNumbers === true,
    encoding: encodingFor(ctx, args.encoding),
  });
  let text = r.text;
  // A cut from the start ends on a whole line, so the next startLine repeats nothing and skips nothing.
  const cutFromStart = r.truncated && args.tail === undefined;
  const nl = cutFromStart ? text.lastIndexOf("\n") : -1;
  if (nl > 0) text = text.slice(0, nl + 1);
  const lines = countLines(text);
  let kept: number | undefined;
  // The same lines as every other read shape: head/tail's own, a whole read's through the one model.
  const all = args.lineNumbers ? (r.lines ?? textsOf(linesOf(text))) : [];
  if (all.length > 0) {
    const total = r.state?.totalLines;
    const first = args.tail !== undefined ? (total !== undefined ? total - all.length + 1 : undefined) : 1;
    if (first !== undefined) {
      // Numbers widen the lines read: the lines that still fit are kept (the last ones for tail).
      const numbered = numberLines(all, first);
      const fromEnd = args.tail !== undefined;
      const fit = r.cutLine
        ? numbered.length
        : ctx.budget.takeLines(fromEnd ? [...numbered].reverse() : numbered);
      kept = Math.max(fit, Math.min(1, numbered.length));
      const shown = fromEnd ? numbered.slice(numbered.length - kept) : numbered.slice(0, kept);
      text = shown.join("\n") + (kept < numbered.length ? "\n" : "");
    }
  }
  const count = kept ?? lines;
  const truncated = r.truncated || count < lines;
  // A whole read: remembered, so a later refused change can show what changed since this version.
  if (r.sha256 && !truncated && args.head === undefined && args.tail === undefined)
    ctx.reads.remember(r.sha256, r.text);
  if (r.cutLine || truncated)
    text += close(
      readNote(args, budget, {
        cutLine: r.cutLine === true,
        nl: nl > 0 || count < lines,
        shown: ctx.budget.sizeOf(r.text),
        lines: count,
        total: r.state?.totalLines,
        size: r.size,
      }),
    );
  return textReply(text, {
    size: r.size,
    truncated,
    lines: count,
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

/** read_file (deprecated) is read_text_file under its old name. */
export { handler as readText, input as readTextInput, output as readTextOutput };
