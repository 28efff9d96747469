import fs from "node:fs/promises";
import { isErrno, ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { type PinnedDir, pinParent } from "./safe-open.js";

/**
 * A directory entry addressed by its own name: `real` is the realpath of the parent joined with the last
 * component, so a symlink is the link itself (deleting or moving it never touches its target).
 */
export type EntryPath = ResolvedPath;

export type EntryKind = "missing" | "file" | "dir" | "symlink" | "other";

/** What the entry is now (by lstat); `at` names it through a pinned directory when given. */
export async function entryKind(entry: EntryPath, at: string = entry.real): Promise<EntryKind> {
  const st = await fs.lstat(at).catch((err) => {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return undefined;
    throw err;
  });
  if (!st) return "missing";
  if (st.isSymbolicLink()) return "symlink";
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  return "other";
}

/** Unlinks a file or symlink (never a directory), through its pinned parent directory. */
export async function deleteFile(entry: EntryPath): Promise<void> {
  const { dir, name } = await pinEntryParent(entry);
  try {
    const kind = await entryKind(entry, dir.at(name));
    if (kind === "missing") throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
    if (kind === "dir") throw new ToolError(`Is a directory: ${printable(entry.requested)}`, "not_file");
    await fs.unlink(dir.at(name));
  } finally {
    await dir.close();
  }
}

/** The entry's parent, pinned by descriptor (a missing parent means a missing entry). */
async function pinEntryParent(entry: EntryPath): Promise<{ dir: PinnedDir; name: string }> {
  try {
    return await pinParent(entry.real, entry.root.real, entry.requested);
  } catch (err) {
    if (isErrno(err, "ENOENT"))
      throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
    if (err instanceof ToolError && err.code === "not_directory")
      throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
    throw err;
  }
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

/**
 * Every descendant of a pinned directory (symlinked directories are entries, not descended into), sorted.
 * Each subdirectory is itself pinned before it is read, so a swap cannot make the walk list another place.
 */
async function descendants(top: PinnedDir, relBase: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const visit = async (dir: PinnedDir, rel: string): Promise<void> => {
    const list = await fs.readdir(dir.at("."), { withFileTypes: true });
    for (const d of list) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      const isDir = d.isDirectory();
      out.push({ rel: r, isDir });
      if (isDir) await withChild(dir, d.name, (sub) => visit(sub, r));
    }
  };
  await visit(top, relBase);
  return out.sort((a, b) => comparePathParts(a.rel, b.rel));
}

async function withChild<T>(dir: PinnedDir, name: string, fn: (sub: PinnedDir) => Promise<T>): Promise<T> {
  const sub = await dir.child(name);
  try {
    return await fn(sub);
  } finally {
    await sub.close();
  }
}

/** Empties a pinned directory depth-first: files and links unlinked, subdirectories pinned, emptied, removed. */
async function emptyTree(dir: PinnedDir): Promise<void> {
  for (const d of await fs.readdir(dir.at("."), { withFileTypes: true })) {
    if (d.isDirectory()) {
      await withChild(dir, d.name, emptyTree);
      await fs.rmdir(dir.at(d.name));
    } else {
      await fs.unlink(dir.at(d.name));
    }
  }
}

/**
 * Deletes a directory: an empty one by default, the whole tree with `recursive`. Returns what was deleted
 * (the directory first, then its sorted descendants), collected before deleting. Every level is reached
 * through descriptors, never by re-walking a path that could have been swapped for a symlink.
 */
export async function deleteDirectory(entry: EntryPath, recursive: boolean): Promise<TreeEntry[]> {
  if (entry.relative === "") throw new ToolError("Refusing to delete a root directory", "denied");
  const { dir: parent, name } = await pinEntryParent(entry).catch((err) => {
    if (err instanceof ToolError && err.code === "not_found")
      throw new ToolError(`No such directory: ${printable(entry.requested)}`, "not_found");
    throw err;
  });
  try {
    const kind = await entryKind(entry, parent.at(name));
    if (kind === "missing")
      throw new ToolError(`No such directory: ${printable(entry.requested)}`, "not_found");
    if (kind !== "dir")
      throw new ToolError(`Not a directory: ${printable(entry.requested)}`, "not_directory");
    const inner = await withChild(parent, name, async (dir) => {
      const found = await descendants(dir, entry.relative);
      if (found.length > 0 && !recursive)
        throw new ToolError(`Directory not empty: ${printable(entry.requested)}`, "conflict");
      if (recursive) await emptyTree(dir);
      return found;
    });
    await fs.rmdir(parent.at(name));
    return [{ rel: entry.relative, isDir: true }, ...inner];
  } finally {
    await parent.close();
  }
}
