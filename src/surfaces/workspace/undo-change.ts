import { z } from "zod";
import { undo } from "../changes.js";
import { defineTool } from "../tool.js";
import { strOutput, strReply } from "./common.js";
import { showRelative } from "./list-changes.js";

export const undoChangeTool = defineTool({
  name: "undo_change",
  title: "Undo Change",
  description:
    "Take back one change (ids from list_changes or a mutating tool's reply): exact bytes, modes and names come back. Refused, with a diff, when a path changed since; force undoes anyway. The undo is itself a change, so it can be undone too.",
  input: z.object({
    id: z.string().describe("the change's id"),
    dry_run: z.boolean().optional().describe("only show what would be done and what changed since"),
    force: z
      .boolean()
      .optional()
      .describe("undo even where a path changed since (that version is kept in the journal)"),
  }),
  output: strOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const r = await undo(ctx, { id: args.id, dryRun: args.dry_run, force: args.force }, showRelative);
    return strReply(r.text);
  },
});
