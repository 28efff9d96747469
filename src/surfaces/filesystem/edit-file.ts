import { z } from "zod";
import { fencedDiff } from "../../core/edit/diff.js";
import { editFile } from "../../core/edit/edit-file.js";
import { defineTool, encodingFor, encodingParam, recordChanges, textReply } from "../tool.js";

const input = z.object({
  path: z.string(),
  edits: z.array(
    z.object({
      oldText: z.string().describe("Text to search for - must match exactly"),
      newText: z.string().describe("Text to replace with"),
      replaceAll: z.boolean().optional().describe("Replace every occurrence"),
    }),
  ),
  dryRun: z.boolean().default(false).describe("Show the diff; write nothing"),
  expectedSha256: z
    .string()
    .optional()
    .describe("sha256 your read returned; refused if the file changed since"),
  encoding: encodingParam,
});

const output = z.object({
  content: z.string(),
  changed: z.boolean().optional().describe("the edits change the file's text"),
  written: z.boolean().optional().describe("the file was rewritten (false for dryRun or no change)"),
  lineEnding: z.enum(["LF", "CRLF"]).optional().describe("line ending kept for the file"),
  bom: z.boolean().optional().describe("the file has a UTF-8 byte-order mark, kept"),
  matches: z
    .array(
      z.object({
        index: z.number(),
        kind: z.enum(["exact", "tolerant"]),
        lines: z.array(z.number()).describe("1-based line numbers where the replaced text started"),
      }),
    )
    .optional(),
  sha256: z.string().optional().describe("sha256 of the file's bytes after the call"),
  truncated: z.boolean().optional().describe("the diff was cut to fit the output budget"),
});

export const editFileTool = defineTool({
  name: "edit_file",
  title: "Edit File",
  description:
    "Replace exact text in a file and return a git-style diff. Each oldText must match once (or set replaceAll); failing that, a whole-line match ignoring indentation is tried and re-indented. All edits apply or none. Keeps line endings and BOM. Several files: edit_files; a diff: apply_patch.",
  input,
  output,
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: args.dryRun ? "read" : "write" });
    const r = await editFile(target, args.edits, {
      dryRun: args.dryRun,
      expectedSha256: args.expectedSha256,
      encoding: encodingFor(ctx, args.encoding),
    });
    if (r.change) recordChanges(ctx, [r.change]);
    const budget = ctx.budget;
    let text = fencedDiff(r.diff);
    const truncated = !budget.take(text);
    if (truncated) {
      const note =
        `\n[mcpfs: diff truncated to fit ${budget.limit} bytes; ${r.written ? "the edits were applied" : "nothing was written"}. ` +
        "Read the changed region with read_text_file head/tail to check it.]";
      // The fences around the cut diff are no wider than its opening line ("```diff\n") twice.
      const fence = text.slice(0, text.indexOf("\n") + 1);
      const close = budget.reserve(note + fence + fence);
      const cut = budget.cut(r.diff, true);
      text = `${fencedDiff(cut.text)}${close(note)}`;
    }
    return textReply(text, {
      changed: r.changed,
      written: r.written,
      lineEnding: r.format.eol === "\r\n" ? "CRLF" : "LF",
      bom: r.format.bom,
      matches: r.matches.map((m) => ({ index: m.index, kind: m.kind, lines: m.lines })),
      sha256: r.sha256,
      truncated,
    });
  },
});
