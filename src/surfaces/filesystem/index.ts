import type { AnyToolDef } from "../tool.js";
import { createDirectoryTool } from "./create-directory.js";
import { directoryTreeTool } from "./directory-tree.js";
import { editFileTool } from "./edit-file.js";
import { appendFileTool, copyFileTool, deleteDirectoryTool, deleteFileTool } from "./extra-tools.js";
import { getFileInfoTool } from "./get-file-info.js";
import { grepTool } from "./grep.js";
import { listAllowedDirectoriesTool } from "./list-allowed-directories.js";
import { listChangesTool } from "./list-changes.js";
import { listDirectoryTool, listDirectoryWithSizesTool } from "./list-directory.js";
import { moveFileTool } from "./move-file.js";
import { applyPatchTool, editFilesTool } from "./multi-file-tools.js";
import { readMediaFileTool } from "./read-media-file.js";
import { readMultipleFilesTool } from "./read-multiple-files.js";
import { readFileTool, readTextFileTool } from "./read-text-file.js";
import { searchFilesTool } from "./search-files.js";
import { undoChangeTool } from "./undo-change.js";
import { writeFileTool } from "./write-file.js";

/** The official server's tools in its registration order, then mcpfs's own additions. */
export const filesystemTools: readonly AnyToolDef[] = [
  readFileTool,
  readTextFileTool,
  readMediaFileTool,
  readMultipleFilesTool,
  writeFileTool,
  editFileTool,
  createDirectoryTool,
  listDirectoryTool,
  listDirectoryWithSizesTool,
  directoryTreeTool,
  moveFileTool,
  searchFilesTool,
  getFileInfoTool,
  listAllowedDirectoriesTool,
  grepTool,
  // mcpfs's additions (after the official tools).
  appendFileTool,
  copyFileTool,
  deleteFileTool,
  deleteDirectoryTool,
  editFilesTool,
  applyPatchTool,
  listChangesTool,
  undoChangeTool,
];
