import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { isWithin, printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";

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

/** Unlinks a file or symlink (never a directory). */
export async function deleteFile(entry: EntryPath): Promise<void> {
  const kind = await entryKind(entry);
  if (kind === "missing") throw new ToolError(`No such file: ${printable(entry.requested)}`, "not_found");
  if (kind === "dir") throw new ToolError(`Is a directory: ${printable(entry.requested)}`, "not_file");
  await checkParentInside(entry);
  await fs.unlink(entry.real);
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
export async function descendants(dirReal: string, relBase: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const visit = async (dir: string, rel: string): Promise<void> => {
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
 * Deletes a directory: an empty one by default, the whole tree with `recursive`. Returns what was deleted
 * (the directory first, then its sorted descendants), collected before deleting.
 */
export async function deleteDirectory(entry: EntryPath, recursive: boolean): Promise<TreeEntry[]> {
  const kind = await entryKind(entry);
  if (kind === "missing")
    throw new ToolError(`No such directory: ${printable(entry.requested)}`, "not_found");
  if (kind !== "dir") throw new ToolError(`Not a directory: ${printable(entry.requested)}`, "not_directory");
  if (entry.relative === "") throw new ToolError("Refusing to delete a root directory", "denied");
  await checkParentInside(entry);
  const inner = await descendants(entry.real, entry.relative);
  if (inner.length > 0 && !recursive)
    throw new ToolError(`Directory not empty: ${printable(entry.requested)}`, "conflict");
  if (recursive) await fs.rm(entry.real, { recursive: true });
  else await fs.rmdir(entry.real);
  return [{ rel: entry.relative, isDir: true }, ...inner];
}
