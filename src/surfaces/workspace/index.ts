import type { AnyToolDef } from "../tool.js";

/** mcp-workspace's tools, in its registration order. */
export const workspaceTools: readonly AnyToolDef[] = [];
