import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { isWithin, printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

/**
 * A directory entry addressed by its own name: `real` is the realpath of the parent joined with the last
 * component, so a symlink is the link itself (deleting or moving it never touches its target).
 */
export type EntryPath = ResolvedPath;

export type EntryKind = "missing" | "file" | "dir" | "symlink" | "other";

export async function entryKind(entry: EntryPath): Promise<EntryKind> {
  const st = await fs.lstat(entry.real).catch((err) => {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return undefined;
    throw err;
  });
  if (!st) return "missing";
  if (st.isSymbolicLink()) return "symlink";
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  return "other";
}

async function checkParentInside(entry: EntryPath): Promise<void> {
  const parent = await fs.realpath(path.dirname(entry.real));
  if (!isWithin(parent, entry.root.real))
    throw new ToolError(`Access denied - the path changed: ${printable(entry.requested)}`, "denied");
}

export interface DeleteFileOptions {
  /** Only delete while the file still has this sha256 (refused with a `conflict` otherwise). */
  expectedSha256?: string;
}

/**
 * Unlinks a file or symlink (never a directory; a link is removed itself, its target never touched). A
 * regular file goes through `commitChanges`, so it is deleted only while it is the version read (and, with
 * `expectedSha256`, the version the client read).
 */
export async function deleteFile(entry: EntryPath, opts: DeleteFileOptions = {}): Promise<ChangeResult> {
  const kind = await entryKind(entry);
  if (kind === "missing") {
    checkExpected({ requested: entry.requested, expected: opts.expectedSha256, current: undefined });
    throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
  }
  if (kind === "dir") throw new ToolError(`Is a directory: ${printable(entry.requested)}`, "not_file");
  await checkParentInside(entry);
  if (kind !== "file") {
    if (opts.expectedSha256 !== undefined)
      throw new ToolError(
        `An expected hash applies to regular files only; ${printable(entry.requested)} is a ${kind === "symlink" ? "symbolic link" : "special file"}`,
      );
    await fs.unlink(entry.real);
    return { requested: entry.requested, kind: "delete", bytes: 0 };
  }
  const snap = await readSnapshot(entry);
  checkExpected({ requested: entry.requested, expected: opts.expectedSha256, current: snap });
  if (!snap) throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
  const [r] = await commitChanges([{ kind: "delete", target: entry, base: snap }]);
  return r!;
}

export interface TreeEntry {
  /** Relative to the root, "/" separators. */
  rel: string;
  isDir: boolean;
}

/** Compares paths part by part, as Python sorts Path objects ("a/b" before "a-c"). */
export function comparePathParts(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** Every descendant of a directory (symlinked directories are entries, not descended into), sorted. */
export async function descendants(
  dirReal: string,
  relBase: string,
  signal?: AbortSignal,
): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const visit = async (dir: string, rel: string): Promise<void> => {
    signal?.throwIfAborted();
    await checkStillInside(dir, dirReal);
    const list = await fs.readdir(dir, { withFileTypes: true });
    for (const d of list) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      const isDir = d.isDirectory();
      out.push({ rel: r, isDir });
      if (isDir) await visit(path.join(dir, d.name), r);
    }
  };
  await visit(dirReal, relBase);
  return out.sort((a, b) => comparePathParts(a.rel, b.rel));
}

/**
 * Deletes a directory: an empty one by default, the whole tree with `recursive`. Refuses a root. Returns
 * what was deleted (the directory first, then its sorted descendants), collected before deleting. Symlinks
 * inside are removed as links, never followed; before each directory is listed or emptied it is re-checked
 * to still be the real directory below the one being deleted, so a directory swapped for a symlink midway
 * is not followed out.
 */
export async function deleteDirectory(
  entry: EntryPath,
  recursive: boolean,
  signal?: AbortSignal,
): Promise<TreeEntry[]> {
  const kind = await entryKind(entry);
  if (kind === "missing")
    throw new ToolError(`No such directory: ${printable(entry.requested)}`, "not_found");
  if (kind !== "dir") throw new ToolError(`Not a directory: ${printable(entry.requested)}`, "not_directory");
  if (entry.relative === "") throw new ToolError("Refusing to delete a root directory", "denied");
  await checkParentInside(entry);
  const top = entry.real;
  const inner = await descendants(top, entry.relative, signal);
  if (inner.length > 0 && !recursive)
    throw new ToolError(`Directory not empty: ${printable(entry.requested)}`, "conflict");
  const base = entry.relative;
  // Children sort after their parents, so the reversed list empties every directory before removing it.
  for (const e of [...inner].reverse()) {
    signal?.throwIfAborted();
    const p = path.join(top, ...e.rel.slice(base.length + 1).split("/"));
    await checkStillInside(path.dirname(p), top);
    if (e.isDir) await fs.rmdir(p);
    else await fs.unlink(p);
  }
  await fs.rmdir(top);
  return [{ rel: entry.relative, isDir: true }, ...inner];
}

/** `dir` must still be a real directory (no symlink on the way) at or below `top`. */
async function checkStillInside(dir: string, top: string): Promise<void> {
  const st = await fs.lstat(dir);
  const real = await fs.realpath(dir);
  if (!st.isDirectory() || real !== dir || !isWithin(real, top))
    throw new ToolError("Access denied - a directory changed while it was being deleted", "denied");
}
