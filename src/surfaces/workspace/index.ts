import type { AnyToolDef } from "../tool.js";
import { checkBranchStatus, getBaseBranch } from "./branch-status.js";
import { checkFileSizeTool } from "./check-file-size.js";
import { deleteDirectoryTool, deleteThisFileTool } from "./delete-tools.js";
import { editFileTool } from "./edit-file.js";
import { gitTool } from "./git-tool.js";
import {
  githubIssueComment,
  githubIssueCreate,
  githubIssueEdit,
  githubIssueList,
  githubIssueView,
  githubLabelList,
  githubPrCreate,
  githubPrView,
  githubSearch,
} from "./github-tools.js";
import { listChangesTool } from "./list-changes.js";
import { listDirectoryTool, listReferenceDirectoryTool } from "./list-directory.js";
import { moveFileTool } from "./move-file.js";
import { readFileTool } from "./read-file.js";
import { getReferenceProjectsTool, readReferenceFileTool } from "./reference-tools.js";
import { searchFilesTool, searchReferenceFilesTool } from "./search-files.js";
import { undoChangeTool } from "./undo-change.js";
import { appendFileTool, saveFileTool } from "./write-tools.js";

/** mcp-workspace's tools, in its registration order (the order of its tools/list). */
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
  editFileTool,
  // git and GitHub.
  gitTool,
  githubIssueView,
  githubIssueList,
  githubPrView,
  githubSearch,
  githubIssueCreate,
  githubIssueEdit,
  githubIssueComment,
  githubLabelList,
  githubPrCreate,
  getBaseBranch,
  // Checks: check_file_size sits between get_base_branch and check_branch_status there.
  checkFileSizeTool,
  checkBranchStatus,
  // mcpfs's undo journal (after mcp-workspace's own tools).
  listChangesTool,
  undoChangeTool,
];
