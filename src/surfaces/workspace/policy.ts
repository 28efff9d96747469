import { ToolError } from "../../core/errors.js";
import { printable } from "../../core/paths.js";
import type { SurfacePolicy } from "../policy.js";

/** mcp-workspace's choices. */
export const workspacePolicy: SurfacePolicy = {
  name: "workspace",
  // mcp-workspace (FastMCP) words every tool failure this way; clients may match on it.
  errorText: (tool, err, message) => `Error executing tool ${tool}: ${workspaceWording(err) ?? message}`,
  // The workspace seed promises every call at INFO.
  callLogLevel: "info",
  // The project directory is the workspace; client roots never change it.
  clientRoots: false,
};

/** mcp-workspace's own words for an error kind, where they differ from the default message. */
function workspaceWording(err: unknown): string | undefined {
  const detail = err instanceof ToolError ? err.detail : undefined;
  switch (detail?.kind) {
    case "not_utf8":
      return `File '${printable(detail.path)}' contains invalid characters. Ensure it's a valid text file.`;
    default:
      return undefined;
  }
}
