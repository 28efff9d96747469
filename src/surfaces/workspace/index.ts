import type { AnyToolDef } from "../tool.js";
import { appendFileTool } from "./append-file.js";
import { checkBranchStatus } from "./check-branch-status.js";
import { checkFileSizeTool } from "./check-file-size.js";
import { codeTools } from "./code.js";
import { deleteDirectoryTool } from "./delete-directory.js";
import { deleteThisFileTool } from "./delete-this-file.js";
import { editFileTool } from "./edit-file.js";
import { getBaseBranch } from "./get-base-branch.js";
import { getReferenceProjectsTool } from "./get-reference-projects.js";
import { gitTool } from "./git-tool.js";
import { githubIssueComment } from "./github/issue-comment.js";
import { githubIssueCreate } from "./github/issue-create.js";
import { githubIssueEdit } from "./github/issue-edit.js";
import { githubIssueList } from "./github/issue-list.js";
import { githubIssueView } from "./github/issue-view.js";
import { githubLabelList } from "./github/label-list.js";
import { githubPrCreate } from "./github/pr-create.js";
import { githubPrView } from "./github/pr-view.js";
import { githubSearch } from "./github/search.js";
import { listChangesTool } from "./list-changes.js";
import { listDirectoryTool } from "./list-directory.js";
import { listReferenceDirectoryTool } from "./list-reference-directory.js";
import { moveFileTool } from "./move-file.js";
import { readDocumentTool } from "./read-document.js";
import { readFileTool } from "./read-file.js";
import { readImageTool } from "./read-image.js";
import { readReferenceFileTool } from "./read-reference-file.js";
import { saveFileTool } from "./save-file.js";
import { searchFilesTool } from "./search-files.js";
import { searchReferenceFilesTool } from "./search-reference-files.js";
import { structuredFileTools } from "./structured.js";
import { undoChangeTool } from "./undo-change.js";

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
  ...codeTools,
  ...structuredFileTools,
  readDocumentTool,
  readImageTool,
];
