import { z } from "zod";
import { undo } from "../changes.js";
import { defineTool, textReply } from "../tool.js";
import { showAbsolute } from "./list-changes.js";

export const undoChangeTool = defineTool({
  name: "undo_change",
  title: "Undo Change",
  description:
    "Take back one change (ids from list_changes or a mutating tool's reply): exact bytes, modes and names come back (a moved tree moves back, a deleted tree returns with its links). Refused, with a diff, when a path changed since; force undoes anyway. The undo is itself a change, so it can be undone too.",
  input: z.object({
    id: z.string().describe("the change's id"),
    dryRun: z.boolean().optional().describe("only show what would be done and what changed since"),
    force: z
      .boolean()
      .optional()
      .describe("undo even where a path changed since (that version is kept in the journal)"),
  }),
  output: z.object({
    content: z.string(),
    applied: z.boolean().describe("false for a dry run"),
    conflicts: z.number().describe("paths changed since the change"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const r = await undo(ctx, args, showAbsolute);
    return textReply(r.text, { applied: r.result.applied, conflicts: r.result.conflicts });
  },
});
