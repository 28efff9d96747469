import path from "node:path";
import { z } from "zod";
import { changesLimit, listChanges, type ShowPath } from "../changes.js";
import { defineTool, textReply } from "../tool.js";

/** A change's path as this surface shows paths: absolute, under the root as the user named it. */
export const showAbsolute: ShowPath = (ctx, rootReal, rel) => {
  const root = ctx.ws.roots.find((r) => r.real === rootReal);
  return path.join(root?.path ?? rootReal, ...rel.split("/"));
};

export const listChangesTool = defineTool({
  name: "list_changes",
  title: "List Changes",
  description: "Changes made, newest first (id, time, tool, paths, undoable); undo_change takes one back.",
  input: z.object({
    path: z.string().optional().describe("only at or below this path"),
    limit: changesLimit,
  }),
  output: z.object({
    content: z.string(),
    changes: z.array(
      z.object({
        id: z.string(),
        time: z.string(),
        tool: z.string(),
        paths: z.array(z.string()),
        bytes: z.number().describe("bytes of previous versions the journal keeps for it"),
        undoable: z.boolean(),
        reason: z.string().optional().describe("why it cannot be undone"),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const r = await listChanges(ctx, args, showAbsolute);
    return textReply(r.text, { changes: r.changes });
  },
});
