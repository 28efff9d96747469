import { z } from "zod";
import { undo } from "../changes.js";
import { defineTool, textReply } from "../tool.js";
import { showAbsolute } from "./list-changes.js";

export const undoChangeTool = defineTool({
  name: "undo_change",
  title: "Undo Change",
  description:
    "Undo a change by id (see list_changes): bytes, modes, names and links return. Refused with a diff if a path changed since, unless force.",
  input: z.object({
    id: z.string(),
    dryRun: z.boolean().optional(),
    force: z.boolean().optional(),
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
