import type { AnyToolDef } from "../tool.js";
import { editFileTool } from "./edit-file.js";
import { appendFileTool, copyFileTool, deleteDirectoryTool, deleteFileTool } from "./extra-tools.js";
import { listAllowedDirectoriesTool } from "./list-allowed-directories.js";
import { applyPatchTool, editFilesTool } from "./multi-file-tools.js";
import { readFileTool, readTextFileTool } from "./read-text-file.js";

/** The official server's tools in its registration order, then mcpfs's own additions. */
export const filesystemTools: readonly AnyToolDef[] = [
  readFileTool,
  readTextFileTool,
  editFileTool,
  listAllowedDirectoriesTool,
  // mcpfs's additions (after the official tools).
  appendFileTool,
  copyFileTool,
  deleteFileTool,
  deleteDirectoryTool,
  editFilesTool,
  applyPatchTool,
];
