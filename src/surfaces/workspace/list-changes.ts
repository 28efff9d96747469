import { z } from "zod";
import { changesLimit, listChanges, type ShowPath } from "../changes.js";
import { defineTool } from "../tool.js";
import { strOutput, strReply } from "./common.js";

/** A change's path as this surface shows paths: relative to the project directory. */
export const showRelative: ShowPath = (_ctx, _rootReal, rel) => rel;

export const listChangesTool = defineTool({
  name: "list_changes",
  title: "List Changes",
  description:
    "List the changes recorded in the project (every save, append, edit, move and delete is one change), newest first: id, time, tool, paths, bytes kept, whether it can still be undone. Take it back with undo_change.",
  input: z.object({
    path: z
      .string()
      .optional()
      .describe("Project-relative path: only changes that touched it (or anything below it)"),
    limit: changesLimit,
  }),
  output: strOutput,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    return strReply((await listChanges(ctx, args, showRelative)).text);
  },
});
