import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { type PinnedDir, pinDirectory, tempPathBeside, withPinnedParent } from "../fs/safe-open.js";
import { gitDirWriteError } from "../gate.js";
import { shapeOf } from "../journal/change-log.js";
import { hasGitDirSegment } from "../paths.js";
import { namesOf, type ResolvedPath } from "../workspace.js";
import { removeTree } from "./remove.js";
import { readSnapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

export interface CopyOptions {
  /** Replace an existing destination file (directories: copy over, replacing files of the same name). */
  overwrite?: boolean;
  /** Whether a real path may be linked to (is inside an allowed root). */
  contains(real: string): boolean;
  /**
   * A tree holding a `.git` directory may be copied (`--allow-git-dir-writes`); otherwise it is refused, as
   * the copy would plant that repository's config and hooks.
   * @default false
   */
  gitDirWrites?: boolean;
  /** Most entries a directory copy may have. */
  maxEntries?: number;
  /** Largest single file copied (files are read whole and written atomically). */
  maxFileBytes?: number;
  signal?: AbortSignal;
}

export interface CopyResult {
  files: number;
  dirs: number;
  links: number;
  bytes: number;
  /** Per copied file, for the audit log (relative to the destination). */
  written: ChangeResult[];
}

interface Item {
  rel: string;
  type: "file" | "dir" | "symlink";
  link?: string;
}

const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * Copies a file or a directory tree. Never follows a symlink: a link is copied as a link, and only when
 * what it points to, seen from its new place, is still inside an allowed root (otherwise the whole copy
 * is refused before anything is written). Devices, sockets and FIFOs are refused. Each file is written
 * atomically with its mode bits; a new directory tree is built under a hidden name and renamed into place,
 * so a failure or a kill never leaves half a tree at the destination.
 */
export async function copyPath(
  source: ResolvedPath,
  dest: ResolvedPath,
  opts: CopyOptions,
): Promise<CopyResult> {
  const st = await fs.lstat(source.real).catch((err) => {
    if (isErrno(err, "ENOENT")) throw new ToolError("not_found", { path: source.requested });
    throw err;
  });
  const destSt = await fs.lstat(dest.real).catch(() => undefined);
  const result: CopyResult = { files: 0, dirs: 0, links: 0, bytes: 0, written: [] };
  if (st.isFile()) return copyFile(source, dest, destSt, opts, result);
  if (!st.isDirectory())
    throw new ToolError("not_file", { reason: "not_regular_or_dir", path: source.requested });
  if (namesOf(source.root).isAtOrBelow(dest.real, source.real))
    throw new ToolError("invalid", { reason: "copy_into_itself", path: dest.requested });
  if (destSt && !destSt.isDirectory())
    throw new ToolError("exists", { reason: "destination_not_dir", path: dest.requested });
  if (destSt && !opts.overwrite)
    throw new ToolError("exists", { reason: "destination_merge", path: dest.requested });

  const items = await listTree(source, opts);
  const planted = opts.gitDirWrites
    ? undefined
    : items.find((it) => hasGitDirSegment(it.rel, namesOf(source.root).foldsCase));
  if (planted) throw gitDirWriteError(`${dest.requested.replace(/\/+$/, "")}/${planted.rel}`);
  // Refuse links that would point outside from their new place before anything is written.
  for (const it of items) {
    if (it.type !== "symlink") continue;
    const at = path.join(dest.real, ...it.rel.split("/"));
    const to = path.resolve(path.dirname(at), it.link!);
    if (!opts.contains(to))
      throw new ToolError("denied", { reason: "copied_link_outside", path: source.requested, entry: it.rel });
  }
  if (!destSt) {
    // Build under a hidden sibling, then rename into place: all or nothing.
    // The hidden name has the temp shape, so listings hide a tree a kill leaves behind.
    const hidden = tempPathBeside(dest.real);
    const hiddenEntry: ResolvedPath = { ...dest, real: hidden };
    await withPinnedParent(dest, (dir) => fs.mkdir(dir.at(path.basename(hidden)), st.mode & 0o7777));
    try {
      // The hidden tree's files are not changes of their own: the tree is recorded whole once in place.
      await fillTree(source, hidden, items, { ...dest, change: undefined }, result, opts);
      await withPinnedParent(dest, (dir, name) =>
        fs.rename(dir.at(path.basename(hidden)), dir.at(name)),
      ).catch((err) => {
        if (isErrno(err, "EEXIST", "ENOTEMPTY"))
          throw new ToolError("exists", { reason: "destination", path: dest.requested });
        throw err;
      });
    } catch (err) {
      await removeTree(hiddenEntry).catch(() => {});
      throw err;
    }
    result.dirs++;
    const change = dest.change;
    if (change) {
      const { shape, size } = await shapeOf(dest.real);
      change.created(dest.root, dest.real, { type: "tree", mode: st.mode & 0o7777, shape, size });
    }
    return result;
  }
  await fillTree(source, dest.real, items, dest, result, opts);
  return result;
}

/** `copyPath` of a regular file: one atomic write of its bytes and mode bits. */
async function copyFile(
  source: ResolvedPath,
  dest: ResolvedPath,
  destSt: Stats | undefined,
  opts: CopyOptions,
  result: CopyResult,
): Promise<CopyResult> {
  if (destSt?.isDirectory())
    throw new ToolError("exists", { reason: "destination_dir", path: dest.requested });
  if (destSt && !opts.overwrite)
    throw new ToolError("exists", { reason: "destination_replace", path: dest.requested });
  const snap = await readSnapshot(source, { maxBytes: opts.maxFileBytes });
  if (!snap) throw new ToolError("not_found", { reason: "file", path: source.requested });
  const [r] = await commitChanges([
    { kind: "write", target: dest, data: snap.data, base: destSt ? undefined : null, mode: snap.mode },
  ]);
  result.files = 1;
  result.bytes = snap.size;
  result.written.push(r!);
  return result;
}

async function listTree(source: ResolvedPath, opts: CopyOptions): Promise<Item[]> {
  const max = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const items: Item[] = [];
  // Walked through directories pinned by descriptor: a directory swapped for a symlink is refused.
  const visit = async (dir: PinnedDir, rel: string): Promise<void> => {
    opts.signal?.throwIfAborted();
    for (const name of (await fs.readdir(dir.at(""))).sort()) {
      const p = dir.at(name);
      const r = rel ? `${rel}/${name}` : name;
      const s = await fs.lstat(p);
      if (items.length >= max)
        throw new ToolError("too_large", { reason: "copy_entries", path: source.requested, limit: max });
      if (s.isDirectory()) {
        items.push({ rel: r, type: "dir" });
        const child = await dir.child(name);
        try {
          await visit(child, r);
        } finally {
          await child.close();
        }
      } else if (s.isFile()) items.push({ rel: r, type: "file" });
      else if (s.isSymbolicLink()) items.push({ rel: r, type: "symlink", link: await fs.readlink(p) });
      else throw new ToolError("not_file", { reason: "copy_special", path: source.requested, entry: r });
    }
  };
  const top = await pinDirectory(source.real, source.root, source.requested);
  try {
    await visit(top, "");
  } finally {
    await top.close();
  }
  return items;
}

async function fillTree(
  source: ResolvedPath,
  into: string,
  items: Item[],
  dest: ResolvedPath,
  result: CopyResult,
  opts: CopyOptions,
): Promise<void> {
  for (const it of items) {
    opts.signal?.throwIfAborted();
    const parts = it.rel.split("/");
    const from = path.join(source.real, ...parts);
    const to = path.join(into, ...parts);
    const requested = `${dest.requested.replace(/[\\/]+$/, "")}/${it.rel}`;
    const at: ResolvedPath = { ...dest, requested, real: to };
    if (it.type === "dir") {
      const s = await fs.lstat(from);
      // Made and checked through the pinned parent: a symlink standing where a directory goes (copying
      // into an existing tree) is never followed.
      await withPinnedParent(at, async (dir, name) => {
        const made = await fs.mkdir(dir.at(name), s.mode & 0o7777).then(
          () => true,
          (err) => {
            if (!isErrno(err, "EEXIST")) throw err;
            return false;
          },
        );
        if (made) dest.change?.created(dest.root, to, { type: "dir", mode: s.mode & 0o7777 });
        const there = await fs.lstat(dir.at(name));
        if (!there.isDirectory())
          throw new ToolError("exists", { reason: "destination_not_dir", path: requested });
      });
      result.dirs++;
    } else if (it.type === "symlink") {
      await withPinnedParent(at, async (dir, name) => {
        await fs.symlink(it.link!, dir.at(name));
        dest.change?.created(dest.root, to, { type: "link", target: it.link! });
      }).catch((err) => {
        if (isErrno(err, "EEXIST")) throw new ToolError("exists", { reason: "destination", path: requested });
        throw err;
      });
      result.links++;
    } else {
      const src = { ...source, requested: `${source.requested}/${it.rel}`, real: from, relative: "" };
      const snap = await readSnapshot(src, { maxBytes: opts.maxFileBytes });
      if (!snap) continue;
      const target = { ...dest, requested, real: to, exists: false };
      const existing = await fs.lstat(to).catch(() => undefined);
      if (existing && !existing.isFile())
        throw new ToolError("exists", { reason: "destination_not_file", path: requested });
      const [r] = await commitChanges([
        { kind: "write", target, data: snap.data, base: existing ? undefined : null, mode: snap.mode },
      ]);
      result.files++;
      result.bytes += snap.size;
      result.written.push(r!);
    }
  }
}
