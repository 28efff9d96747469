import type { AnyToolDef } from "../tool.js";
import { editFileTool } from "./edit-file.js";
import { listAllowedDirectoriesTool } from "./list-allowed-directories.js";
import { readFileTool, readTextFileTool } from "./read-text-file.js";

/** The official server's tools in its registration order, then mcpfs's own additions. */
export const filesystemTools: readonly AnyToolDef[] = [
  readFileTool,
  readTextFileTool,
  editFileTool,
  listAllowedDirectoriesTool,
];
