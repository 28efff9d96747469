import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { checkMoveSource } from "../../core/mutate/move.js";
import { moveNoReplace } from "../../core/mutate/move-no-replace.js";
import { escapeName } from "../../core/paths.js";
import { namesOf } from "../../core/workspace.js";
import { defineTool, textReply } from "../tool.js";
import { expectedSha256 } from "./common.js";

export const moveFileTool = defineTool({
  name: "move_file",
  title: "Move File",
  description:
    "Move or rename a file or directory (a symlink moves as itself). Fails if the destination exists.",
  input: z.object({ source: z.string(), destination: z.string(), expectedSha256 }),
  output: z.object({
    content: z.string(),
    type: z.enum(["file", "dir", "symlink", "other"]).optional().describe("what was moved"),
    copied: z.boolean().optional().describe("moved across devices by copy + remove"),
  }),
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const src = await ctx.ws.resolveEntry(args.source, { intent: "write" });
    const dst = await ctx.ws.resolveEntry(args.destination, { intent: "write" });
    if (ctx.ws.roots.some((r) => namesOf(r).equal(r.real, src.real) || namesOf(r).equal(r.path, src.real)))
      throw new ToolError("denied", { reason: "move_root", path: args.source });
    // mcpfs: refuse to move a file whose content changed since it was read (lost-update protection).
    const before = await checkMoveSource(src, args.expectedSha256, {
      dest: dst,
      contains: (real) => ctx.ws.contains(real),
      writable: (real) => ctx.ws.writable(real),
    });
    const r = await moveNoReplace(src, dst);
    ctx.recordMutation({ op: "move", from: args.source, path: args.destination, before, after: before });
    return textReply(`Successfully moved ${escapeName(args.source)} to ${escapeName(args.destination)}`, {
      ...r,
    });
  },
});
