import type { AnyToolDef } from "../tool.js";
import { appendFileTool } from "./append-file.js";
import { applyPatchTool } from "./apply-patch.js";
import { codeTools } from "./code.js";
import { copyFileTool } from "./copy-file.js";
import { createDirectoryTool } from "./create-directory.js";
import { deleteDirectoryTool } from "./delete-directory.js";
import { deleteFileTool } from "./delete-file.js";
import { directoryTreeTool } from "./directory-tree.js";
import { editFileTool } from "./edit-file.js";
import { editFilesTool } from "./edit-files.js";
import { getFileInfoTool } from "./get-file-info.js";
import { grepTool } from "./grep.js";
import { listAllowedDirectoriesTool } from "./list-allowed-directories.js";
import { listChangesTool } from "./list-changes.js";
import { listDirectoryTool } from "./list-directory.js";
import { listDirectoryWithSizesTool } from "./list-directory-with-sizes.js";
import { moveFileTool } from "./move-file.js";
import { readDocumentTool } from "./read-document.js";
import { readFileTool } from "./read-file.js";
import { readMediaFileTool } from "./read-media-file.js";
import { readMultipleFilesTool } from "./read-multiple-files.js";
import { readTextFileTool } from "./read-text-file.js";
import { searchFilesTool } from "./search-files.js";
import { structuredFileTools } from "./structured.js";
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
  ...codeTools,
  ...structuredFileTools,
  readDocumentTool,
];
