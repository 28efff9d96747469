import type { AnyToolDef } from "../tool.js";
import { checkBranchStatus, getBaseBranch } from "./branch-status.js";
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

/** The git and GitHub tools, in mcp-workspace's registration order (check_file_size sits before check_branch_status there). */
export const gitAndGithubTools: readonly AnyToolDef[] = [
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
  checkBranchStatus,
];
