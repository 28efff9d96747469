import type { AnyToolDef } from "../tool.js";
import { createDirectoryTool } from "./create-directory.js";
import { editFileTool } from "./edit-file.js";
import { getFileInfoTool } from "./get-file-info.js";
import { grepTool } from "./grep.js";
import { listAllowedDirectoriesTool } from "./list-allowed-directories.js";
import { listDirectoryTool, listDirectoryWithSizesTool } from "./list-directory.js";
import { moveFileTool } from "./move-file.js";
import { readMediaFileTool } from "./read-media-file.js";
import { readMultipleFilesTool } from "./read-multiple-files.js";
import { readFileTool, readTextFileTool } from "./read-text-file.js";
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
  moveFileTool,
  getFileInfoTool,
  listAllowedDirectoriesTool,
  grepTool,
];
