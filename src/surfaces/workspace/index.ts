import type { AnyToolDef } from "../tool.js";
import { gitAndGithubTools } from "./git-github-tools.js";

/** mcp-workspace's tools, in its registration order. */
export const workspaceTools: readonly AnyToolDef[] = [
  // git and GitHub tools (git helper)
  ...gitAndGithubTools,
];
