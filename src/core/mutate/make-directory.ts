import fs from "node:fs/promises";
import { isErrno, ToolError } from "../errors.js";
import { makeDirsPinned } from "../fs/mkdirs.js";
import type { ResolvedPath } from "../workspace.js";

/** mkdir -p below an allowed directory; an existing directory is fine, a file in the way is an error. */
export async function makeDirectory(target: ResolvedPath): Promise<{ created: boolean }> {
  try {
    const st = await fs.stat(target.real);
    if (st.isDirectory()) return { created: false };
    throw new ToolError("exists", { reason: "not_dir", path: target.requested });
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (!isErrno(err, "ENOENT")) throw err;
  }
  // Component by component through pinned parents: a directory swapped for a symlink is never followed.
  const made = await makeDirsPinned(target.real, target);
  return { created: made.length > 0 };
}
