import { z } from "zod";
import { isErrno, ToolError } from "../../core/errors.js";
import { checkMoveSource, moveEntry } from "../../core/files/move.js";
import { defineTool } from "../tool.js";
import { boolOutput, boolReply, expectedSha256, gitignoreGate, resolveEntry } from "./common.js";

/** mcp-workspace answers move failures with a few plain words an assistant can act on. */
export function simplifyMoveError(err: unknown): ToolError {
  if (err instanceof ToolError) {
    // The ignore gate's refusal keeps its full message, as in mcp-workspace.
    if (err.code === "ignored" || err.code === "journal_full") return err;
    if (err.code === "not_found") return new ToolError("File not found", "not_found");
    if (err.code === "exists") return new ToolError("Destination already exists", "exists");
    if (err.code === "denied" || err.code === "read_only") {
      if (err.detail?.kind === "os_denied") return new ToolError("Permission denied", "denied");
      return new ToolError("Invalid path", "denied");
    }
    return new ToolError("Invalid operation", err.code);
  }
  if (isErrno(err, "ENOENT")) return new ToolError("File not found", "not_found");
  if (isErrno(err, "EEXIST", "ENOTEMPTY")) return new ToolError("Destination already exists", "exists");
  if (isErrno(err, "EACCES", "EPERM")) return new ToolError("Permission denied", "denied");
  if (isErrno(err, "EINVAL")) return new ToolError("Invalid operation", "invalid");
  return new ToolError("Move operation failed", "io");
}

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
      throw new ToolError("Invalid source path");
    if (typeof args.destination_path !== "string" || args.destination_path === "")
      throw new ToolError("Invalid destination path");
    let source: Awaited<ReturnType<typeof resolveEntry>>;
    let dest: Awaited<ReturnType<typeof resolveEntry>>;
    try {
      source = await resolveEntry(ctx, args.source_path, "write");
      dest = await resolveEntry(ctx, args.destination_path, "write");
    } catch (err) {
      throw simplifyMoveError(err);
    }
    // The gitignore refusal keeps its full message, as in mcp-workspace.
    await gitignoreGate(ctx, source, args.source_path, "either");
    await gitignoreGate(ctx, dest, args.destination_path, "either");
    // mcpfs: refuse to move a file that changed since it was read (its content is checked, not its name).
    const before = await checkMoveSource(source, args.expected_sha256, {
      dest,
      contains: (real) => ctx.ws.contains(real),
      writable: (real) => ctx.ws.writable(real),
    });
    try {
      const r = await moveEntry(source, dest);
      ctx.recordMutation({
        op: "move",
        from: args.source_path,
        path: args.destination_path,
        before,
        after: before,
      });
      ctx.log.info(`Moved ${args.source_path} -> ${args.destination_path} (${r.method})`);
    } catch (err) {
      throw simplifyMoveError(err);
    }
    return boolReply(true);
  },
});
