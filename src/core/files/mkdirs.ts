import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { isWithin, printable, segments } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { checkPathLength, type PinnedDir, pinDirectory } from "./safe-open.js";

/**
 * Creates the missing parent directories of a resolved path (`mkdir -p`), one component at a time from the
 * root down, each made and opened through its pinned parent: a directory swapped for a symlink meanwhile is
 * refused, never followed (a plain recursive mkdir would create directories wherever the link points).
 */
export async function ensureParentDirs(target: ResolvedPath): Promise<void> {
  const parent = path.dirname(target.real);
  const rootReal = target.root.real;
  if (!isWithin(parent, rootReal))
    throw new ToolError(
      `Access denied - path outside allowed directories: ${printable(target.requested)}`,
      "denied",
    );
  checkPathLength(target.real, target.requested);
  let dir: PinnedDir = await pinDirectory(rootReal, rootReal, target.requested);
  try {
    for (const name of segments(path.relative(rootReal, parent))) {
      try {
        await fs.mkdir(dir.at(name));
      } catch (err) {
        if (!isErrno(err, "EEXIST")) throw err;
      }
      const next = await dir.child(name);
      await dir.close();
      dir = next;
    }
  } catch (err) {
    if (isErrno(err, "ENOTDIR", "EEXIST"))
      throw new ToolError(
        `Not a directory: a parent of ${printable(target.requested)} is a file`,
        "not_directory",
      );
    throw err;
  } finally {
    await dir.close();
  }
}
