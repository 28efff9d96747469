import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { pinParent, placeNoReplace, tempPathBeside, withPinnedParent } from "../fs/safe-open.js";
import { namesOf, type ResolvedPath, type Root } from "../workspace.js";
import { removeTree } from "./remove.js";

export interface MoveNoReplaceOptions {
  /** Test hook: take the cross-device path (copy + remove) even on one device. */
  forceCopy?: boolean;
}

export interface MoveNoReplaceResult {
  /** The move crossed devices and was done by copy + remove. */
  copied: boolean;
  type: "file" | "dir" | "symlink" | "other";
}

/**
 * Moves a directory entry (a symlink is moved as the link itself). Never replaces an existing destination;
 * across devices it copies (links kept as links, modes and times kept) to a temp name beside the
 * destination, renames that into place, then removes the source.
 */
export async function moveNoReplace(
  src: ResolvedPath,
  dst: ResolvedPath,
  opts: MoveNoReplaceOptions = {},
): Promise<MoveNoReplaceResult> {
  const st = await fs.lstat(src.real).catch((err) => {
    if (isErrno(err, "ENOENT", "ENOTDIR")) throw new ToolError("not_found", { path: src.requested });
    throw err;
  });
  const type = st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  if (isRespelling(src, dst)) {
    await respell(src, dst.spelled!);
    await recordMove(src, dst, type, "fs");
    return { copied: false, type };
  }
  if (await exists(dst.real)) throw new ToolError("exists", { reason: "destination", path: dst.requested });
  const parent = await fs.stat(path.dirname(dst.real)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new ToolError("not_found", { reason: "parent", path: dst.requested });
  if (type === "dir" && namesOf(src.root).isAtOrBelow(dst.real, src.real))
    throw new ToolError("invalid", {
      reason: "move_into_itself",
      path: src.requested,
      destination: dst.requested,
    });
  if (!opts.forceCopy) {
    // Both parents pinned by descriptor: a directory swapped for a symlink meanwhile cannot make the
    // link/unlink/rename act outside the root.
    const from = await pinParent(src.real, src.root, src.requested);
    try {
      const to = await pinParent(dst.real, dst.root, dst.requested);
      try {
        await renameNoReplace(src.root, from.dir.at(from.name), to.dir.at(to.name), type);
        await recordMove(src, dst, type, "fs");
        return { copied: false, type };
      } finally {
        await to.dir.close();
      }
    } catch (err) {
      if (isNameTaken(err)) throw new ToolError("exists", { reason: "destination", path: dst.requested });
      if (!isErrno(err, "EXDEV")) throw err;
    } finally {
      await from.dir.close();
    }
  }
  // Across devices: copy to a hidden name beside the destination, rename it in through the pinned
  // parent, then remove the source through pinned directories (never a path-based recursive rm).
  const temp = tempPathBeside(dst.real);
  const tempEntry: ResolvedPath = { ...dst, real: temp };
  try {
    await fs.cp(src.real, temp, {
      recursive: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
      verbatimSymlinks: true,
    });
    await withPinnedParent(dst, (dir, name) =>
      renameNoReplace(dst.root, dir.at(path.basename(temp)), dir.at(name), type),
    );
  } catch (err) {
    await removeTree(tempEntry).catch(() => {});
    if (isNameTaken(err)) throw new ToolError("exists", { reason: "destination", path: dst.requested });
    throw err;
  }
  await removeTree(src);
  await recordMove(src, dst, type, "fs");
  return { copied: true, type };
}

/** Notes a move in the call's undo journal; a respelling lands at its new spelling in the same directory. */
export async function recordMove(
  src: ResolvedPath,
  dst: ResolvedPath,
  type: MoveNoReplaceResult["type"],
  method: "git" | "fs",
): Promise<void> {
  const change = src.change ?? dst.change;
  if (!change) return;
  const to = isRespelling(src, dst) ? { ...dst, real: path.join(path.dirname(src.real), dst.spelled!) } : dst;
  await change.moved(src, to, type, method);
}

/**
 * The destination is the source's own entry spelled otherwise (`Foo.txt` -> `foo.txt` on a case-insensitive
 * volume): a rename that changes only the spelling, never a move onto something else.
 */
export function isRespelling(src: ResolvedPath, dst: ResolvedPath): boolean {
  return dst.spelled !== undefined && dst.real === src.real && dst.root === src.root;
}

/**
 * Renames `src` to `spelled` in its own directory (pinned): the same entry, so nothing is replaced. Where
 * a rename onto the same entry changes nothing (Wine; some SMB servers), it goes through a visible
 * intermediate name (not a temp name: a crash there must not let the sweep of stale temps remove it).
 */
export async function respell(src: ResolvedPath, spelled: string): Promise<void> {
  await withPinnedParent(src, async (dir, name) => {
    await fs.rename(dir.at(name), dir.at(spelled));
    if ((await fs.readdir(dir.real)).includes(spelled)) return;
    const between = `${spelled}.mcpfs-rename-${randomBytes(4).toString("hex")}`;
    await fs.rename(dir.at(name), dir.at(between));
    await fs.rename(dir.at(between), dir.at(spelled));
  });
}

/**
 * rename(2) replaces an existing target; for anything but a directory, link + unlink (or, without hard
 * links, an exclusive claim of the name) refuses one atomically instead. A directory: a checked rename.
 */
async function renameNoReplace(
  root: Root,
  from: string,
  to: string,
  type: MoveNoReplaceResult["type"],
): Promise<void> {
  if (type !== "dir") {
    await placeNoReplace(root, from, to);
    return;
  }
  if (await exists(to)) throw new NameTaken(to);
  await fs.rename(from, to);
}

/** The new name is taken: a directory's rename refuses it, as link(2) and an exclusive create do (EEXIST). */
class NameTaken extends Error {
  constructor(to: string) {
    super(`exists: ${to}`);
    this.name = "NameTaken";
  }
}

function isNameTaken(err: unknown): boolean {
  return err instanceof NameTaken || isErrno(err, "EEXIST");
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch (err) {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return false;
    throw err;
  }
}
