import type { AnyToolDef } from "../tool.js";
import { checkFileSizeTool } from "./check-file-size.js";
import { deleteDirectoryTool, deleteThisFileTool } from "./delete-tools.js";
import { gitAndGithubTools } from "./git-github-tools.js";
import { listDirectoryTool, listReferenceDirectoryTool } from "./list-directory.js";
import { moveFileTool } from "./move-file.js";
import { readFileTool } from "./read-file.js";
import { getReferenceProjectsTool, readReferenceFileTool } from "./reference-tools.js";
import { searchFilesTool, searchReferenceFilesTool } from "./search-files.js";
import { appendFileTool, saveFileTool } from "./write-tools.js";

/** mcp-workspace's tools, in its registration order. */
export const workspaceTools: readonly AnyToolDef[] = [
  // Reference projects (registered first in mcp-workspace).
  getReferenceProjectsTool,
  readReferenceFileTool,
  listReferenceDirectoryTool,
  searchReferenceFilesTool,
  // Project files.
  searchFilesTool,
  listDirectoryTool,
  readFileTool,
  saveFileTool,
  appendFileTool,
  deleteThisFileTool,
  deleteDirectoryTool,
  moveFileTool,
  checkFileSizeTool,
  // git and GitHub tools (git, github_*, get_base_branch, check_branch_status).
  ...gitAndGithubTools,
];
