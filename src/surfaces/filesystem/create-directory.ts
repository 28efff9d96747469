import { z } from "zod";
import { makeDirectory } from "../../core/mutate/make-directory.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, textReply } from "../tool.js";

export const createDirectoryTool = defineTool({
  name: "create_directory",
  title: "Create Directory",
  description: "Create a directory and any missing parents; succeeds if it already exists.",
  input: z.object({ path: z.string() }),
  output: z.object({
    content: z.string(),
    created: z.boolean().optional().describe("false when the directory already existed"),
  }),
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "write" });
    const r = await makeDirectory(target);
    if (r.created) ctx.recordMutation({ op: "mkdir", path: args.path });
    return textReply(`Successfully created directory ${escapeName(args.path)}`, { created: r.created });
  },
});
