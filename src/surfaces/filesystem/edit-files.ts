import { z } from "zod";
import { fencedDiff, unifiedDiff } from "../../core/edit/diff.js";
import { type Edit, editKeepingEndings } from "../../core/edit/edit.js";
import { editFiles } from "../../core/edit/multi-edit.js";
import { ToolError } from "../../core/errors.js";
import { defineTool, encodingFor, encodingParam, recordChanges, textReply } from "../tool.js";
import { budgeted, expectedSha256 } from "./common.js";

const editShape = z.object({
  oldText: z.string().describe("Exact text to replace"),
  newText: z.string().describe("Replacement text"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence"),
});

/** One file's edits with the shared engine, keeping each line's own ending and the BOM. */
function applyKeepingFormat(text: string, edits: readonly Edit[]): string {
  return editKeepingEndings(text, edits).text;
}

export const editFilesTool = defineTool({
  name: "edit_files",
  title: "Edit Files",
  description:
    "Edit several files all or nothing: every edit is checked first, and if any oldText does not match or a file changed since its expectedSha256, no file changes. Edits match as in edit_file.",
  input: z.object({
    files: z
      .array(z.object({ path: z.string(), edits: z.array(editShape), expectedSha256 }))
      .describe("Each file once, with its edits"),
    dryRun: z.boolean().default(false).describe("Show the combined diff; write nothing"),
    encoding: encodingParam,
  }),
  output: z.object({
    content: z.string(),
    files: z.number().optional().describe("files changed (or, with dryRun, that would change)"),
    truncated: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    if (args.files.length === 0)
      throw new ToolError("invalid", { reason: "files_empty", parameter: "files" });
    const intent = args.dryRun ? "read" : "write";
    const files = [];
    for (const f of args.files)
      files.push({
        target: await ctx.ws.resolve(f.path, { intent }),
        edits: f.edits,
        expectedSha256: f.expectedSha256,
        encoding: encodingFor(ctx, args.encoding),
      });
    const r = await editFiles(files, applyKeepingFormat, {
      dryRun: args.dryRun,
      makeDiff: unifiedDiff,
      journal: ctx.journal,
    });
    recordChanges(ctx, r.changes);
    const count = args.dryRun ? files.length : r.changes.length;
    const out = budgeted(ctx, fencedDiff(r.diff));
    return textReply(out.text, { files: count, truncated: out.truncated });
  },
});
