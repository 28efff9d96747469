import type { SurfacePolicy } from "../policy.js";

/** mcp-workspace's choices. */
export const workspacePolicy: SurfacePolicy = {
  name: "workspace",
  // mcp-workspace (FastMCP) words every tool failure this way; clients may match on it.
  errorText: (tool, message) => `Error executing tool ${tool}: ${message}`,
  // The workspace seed promises every call at INFO.
  callLogLevel: "info",
  // The project directory is the workspace; client roots never change it.
  clientRoots: false,
};
