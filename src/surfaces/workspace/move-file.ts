import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { checkMoveSource, moveEntry } from "../../core/mutate/move.js";
import { defineTool } from "../tool.js";
import { boolOutput, boolReply, expectedSha256, gitignoreGate, resolveEntry } from "./common.js";

export const moveFileTool = defineTool({
  name: "move_file",
  title: "Move File",
  description:
    "Move or rename a file or directory: git mv for tracked files (keeps history), else a plain move; creates missing parent directories.",
  input: z.object({
    source_path: z.string().describe("Project-relative path"),
    destination_path: z.string().describe("Project-relative path"),
    expected_sha256: expectedSha256,
  }),
  output: boolOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    if (typeof args.source_path !== "string" || args.source_path === "")
      throw new ToolError("invalid", { reason: "path_param_empty", parameter: "source_path" });
    if (typeof args.destination_path !== "string" || args.destination_path === "")
      throw new ToolError("invalid", { reason: "path_param_empty", parameter: "destination_path" });
    // Refusals are worded in mcp-workspace's few plain words by the surface's table (`workspaceWording`).
    const source = await resolveEntry(ctx, args.source_path, "write");
    const dest = await resolveEntry(ctx, args.destination_path, "write");
    await gitignoreGate(ctx, source, args.source_path, "either");
    await gitignoreGate(ctx, dest, args.destination_path, "either");
    // mcpfs: refuse to move a file that changed since it was read (its content is checked, not its name).
    const before = await checkMoveSource(source, args.expected_sha256, {
      dest,
      contains: (real) => ctx.ws.contains(real),
      writable: (real) => ctx.ws.writable(real),
    });
    const r = await moveEntry(source, dest);
    ctx.recordMutation({
      op: "move",
      from: args.source_path,
      path: args.destination_path,
      before,
      after: before,
    });
    ctx.log.info(`Moved ${args.source_path} -> ${args.destination_path} (${r.method})`);
    return boolReply(true);
  },
});
