import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { segments } from "../paths.js";
import { deniedError, namesOf, type ResolvedPath } from "../workspace.js";
import { checkPathLength, type PinnedDir, pinDirectory, withPinnedParent } from "./safe-open.js";

/**
 * Creates the missing directories down to `dirReal` (`mkdir -p`), one component at a time from the root
 * down, each made and opened through its pinned parent: a directory swapped for a symlink meanwhile is
 * refused, never followed (a plain recursive mkdir would create directories wherever the link points).
 * Returns the directories it made, outermost first.
 */
export async function makeDirsPinned(
  dirReal: string,
  target: ResolvedPath,
  mode?: number,
): Promise<string[]> {
  const rootReal = target.root.real;
  if (!namesOf(target.root).isAtOrBelow(dirReal, rootReal)) throw deniedError(target.requested);
  checkPathLength(target.real, target.requested);
  const made: string[] = [];
  let dir: PinnedDir = await pinDirectory(rootReal, target.root, target.requested);
  try {
    for (const name of segments(path.relative(rootReal, dirReal))) {
      try {
        await fs.mkdir(dir.at(name), mode);
        made.push(path.join(dir.real, name));
        const st = await fs.lstat(dir.at(name));
        target.change?.created(target.root, made.at(-1)!, { type: "dir", mode: st.mode & 0o7777 });
      } catch (err) {
        if (!isErrno(err, "EEXIST")) throw err;
      }
      const next = await dir.child(name);
      await dir.close();
      dir = next;
    }
  } catch (err) {
    await removeMadeDirs(made, target);
    if (isErrno(err, "ENOTDIR", "EEXIST"))
      throw new ToolError("not_directory", { reason: "parent_is_file", path: target.requested });
    throw err;
  } finally {
    await dir.close();
  }
  return made;
}

/** Creates the missing parent directories of a resolved path (see makeDirsPinned). */
export async function ensureParentDirs(target: ResolvedPath): Promise<string[]> {
  return makeDirsPinned(path.dirname(target.real), target);
}

/** Removes directories made by makeDirsPinned (innermost first, only while empty), through pinned parents. */
export async function removeMadeDirs(made: readonly string[], target: ResolvedPath): Promise<void> {
  for (const d of [...made].reverse()) {
    try {
      await withPinnedParent({ ...target, real: d }, (dir, name) => fs.rmdir(dir.at(name)));
      target.change?.forgetCreated(target.root, d);
    } catch {
      // Best effort: a directory someone filled or moved meanwhile stays.
    }
  }
}
