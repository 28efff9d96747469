import type { AnyToolDef } from "../tool.js";
import { deleteDirectoryTool, deleteThisFileTool } from "./delete-tools.js";
import { moveFileTool } from "./move-file.js";
import { readFileTool } from "./read-file.js";
import { getReferenceProjectsTool, readReferenceFileTool } from "./reference-tools.js";
import { appendFileTool, saveFileTool } from "./write-tools.js";

/** mcp-workspace's tools, in its registration order. */
export const workspaceTools: readonly AnyToolDef[] = [
  // Reference projects (registered first in mcp-workspace).
  getReferenceProjectsTool,
  readReferenceFileTool,
  // Project files.
  readFileTool,
  saveFileTool,
  appendFileTool,
  deleteThisFileTool,
  deleteDirectoryTool,
  moveFileTool,
  // git and GitHub tools go here (Git & GitHub issue).
];
