import fs from "node:fs/promises";
import { isErrno, ToolError } from "../errors.js";
import { type PinnedDir, withPinnedParent } from "../fs/safe-open.js";
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
    throw new ToolError("not_found", { reason: "file", path: entry.requested });
  }
  if (kind === "dir") throw new ToolError("not_file", { path: entry.requested });
  if (kind !== "file") {
    if (opts.expectedSha256 !== undefined)
      throw new ToolError("invalid", { reason: "hash_not_file", path: entry.requested, actual: kind });
    await withPinnedParent(entry, async (dir, name) => {
      const st = await fs.lstat(dir.at(name));
      if (st.isDirectory()) throw new ToolError("not_file", { path: entry.requested });
      // A link is its target text: the undo journal keeps that (a special file cannot be brought back).
      const link = st.isSymbolicLink() ? await fs.readlink(dir.at(name)) : undefined;
      await fs.unlink(dir.at(name));
      if (link !== undefined) entry.change?.removed(entry.root, entry.real, { type: "link", target: link });
    });
    return { requested: entry.requested, kind: "delete", bytes: 0 };
  }
  const snap = await readSnapshot(entry);
  checkExpected({ requested: entry.requested, expected: opts.expectedSha256, current: snap });
  if (!snap) throw new ToolError("not_found", { reason: "file", path: entry.requested });
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

/** Every descendant of a pinned directory (symlinked directories are entries, not descended into), unsorted. */
async function listPinned(
  dir: PinnedDir,
  rel: string,
  out: TreeEntry[],
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  for (const d of await fs.readdir(dir.at(""), { withFileTypes: true })) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    const isDir = d.isDirectory();
    out.push({ rel: r, isDir });
    if (isDir) await withChild(dir, d.name, (c) => listPinned(c, r, out, signal));
  }
}

/** Empties a pinned directory: files and links unlinked, subdirectories emptied and removed, depth first. */
async function emptyPinned(dir: PinnedDir, signal?: AbortSignal): Promise<void> {
  for (const d of await fs.readdir(dir.at(""), { withFileTypes: true })) {
    signal?.throwIfAborted();
    if (d.isDirectory()) {
      await withChild(dir, d.name, (c) => emptyPinned(c, signal));
      await fs.rmdir(dir.at(d.name));
    } else {
      await fs.unlink(dir.at(d.name));
    }
  }
}

/** Runs `fn` on a subdirectory pinned through its pinned parent (a symlink swapped in is refused). */
async function withChild<T>(dir: PinnedDir, name: string, fn: (c: PinnedDir) => Promise<T>): Promise<T> {
  const child = await dir.child(name).catch((err) => {
    if (err instanceof ToolError || isErrno(err, "ELOOP", "ENOTDIR")) throw changedWhileDeleting();
    throw err;
  });
  try {
    return await fn(child);
  } finally {
    await child.close();
  }
}

/** Which directory is not known here: the words name the call's path. */
function changedWhileDeleting(): ToolError {
  return new ToolError("denied", { reason: "changed_while_deleting" });
}

/**
 * Deletes a directory: an empty one by default, the whole tree with `recursive`. Refuses a root. Returns
 * what was deleted (the directory first, then its sorted descendants), collected before deleting. Every
 * listing, unlink and rmdir goes through directories pinned by descriptor from the parent down, so a
 * directory swapped for a symlink midway is refused, never followed out of the root.
 */
export async function deleteDirectory(
  entry: EntryPath,
  recursive: boolean,
  signal?: AbortSignal,
): Promise<TreeEntry[]> {
  const kind = await entryKind(entry);
  if (kind === "missing") throw new ToolError("not_found", { reason: "directory", path: entry.requested });
  if (kind !== "dir") throw new ToolError("not_directory", { path: entry.requested });
  if (entry.relative === "") throw new ToolError("denied", { reason: "delete_root", path: entry.requested });
  const inner: TreeEntry[] = [];
  const change = entry.change;
  let mode = 0;
  await withPinnedParent(entry, async (parent, name) => {
    await withChild(parent, name, async (top) => {
      await listPinned(top, entry.relative, inner, signal);
      if (inner.length > 0 && !recursive) throw new ToolError("not_empty", { path: entry.requested });
      mode = (await fs.lstat(top.at(""))).mode & 0o7777;
      // Journaled, a tree is renamed into the change whole (below) instead of emptied entry by entry.
      if (!change || inner.length === 0) await emptyPinned(top, signal);
    });
    if (change && inner.length > 0) return;
    await fs.rmdir(parent.at(name));
    await parent.sync();
  });
  if (change && inner.length > 0) await change.removeTree(entry, () => removeTree(entry, signal));
  else change?.removed(entry.root, entry.real, { type: "dir", mode });
  inner.sort((a, b) => comparePathParts(a.rel, b.rel));
  return [{ rel: entry.relative, isDir: true }, ...inner];
}

/** Removes a directory tree below a root through pinned directories (used where a move copied it away). */
export async function removeTree(entry: EntryPath, signal?: AbortSignal): Promise<void> {
  await withPinnedParent(entry, async (parent, name) => {
    const st = await fs.lstat(parent.at(name));
    if (st.isDirectory()) {
      await withChild(parent, name, (top) => emptyPinned(top, signal));
      await fs.rmdir(parent.at(name));
    } else {
      await fs.unlink(parent.at(name));
    }
  });
}
