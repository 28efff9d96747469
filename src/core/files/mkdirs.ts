import fs from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../errors.js";
import { isWithin, printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";

/**
 * Creates the missing parent directories of a resolved path (`mkdir -p`), then checks that the parent really
 * is a directory inside the root (a symlink swapped in meanwhile is refused).
 */
export async function ensureParentDirs(target: ResolvedPath): Promise<void> {
  const parent = path.dirname(target.real);
  try {
    await fs.mkdir(parent, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR")
      throw new ToolError(
        `Not a directory: a parent of ${printable(target.requested)} is a file`,
        "not_directory",
      );
    throw err;
  }
  const real = await fs.realpath(parent);
  if (!isWithin(real, target.root.real))
    throw new ToolError(
      `Access denied - the path changed while it was being created: ${printable(target.requested)}`,
      "denied",
    );
}
