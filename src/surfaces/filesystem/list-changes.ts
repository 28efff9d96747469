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
  description:
    "List the changes mcpfs recorded (every write, edit, patch, move, copy, delete and mkdir is one change), newest first: id, time, tool, paths, bytes kept, whether it can still be undone. Take it back with undo_change.",
  input: z.object({
    path: z
      .string()
      .optional()
      .describe("only changes that touched this file, or anything below this directory"),
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
