import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { isWithin, printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

export interface DeleteFileOptions {
  /** Only delete while the file still has this sha256. */
  expectedSha256?: string;
}

/** Deletes one file (a symlink is removed as a link; its target is never touched). */
export async function deleteFile(target: ResolvedPath, opts: DeleteFileOptions = {}): Promise<ChangeResult> {
  const st = await fs.lstat(target.real).catch((err) => {
    if (isErrno(err, "ENOENT")) return undefined;
    throw err;
  });
  if (!st) {
    checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: undefined });
    throw new ToolError(`No such file: ${printable(target.requested)}`, "not_found");
  }
  if (st.isDirectory())
    throw new ToolError(
      `Is a directory, not a file: ${printable(target.requested)} (use delete_directory)`,
      "not_file",
    );
  if (!st.isFile()) throw new ToolError(`Not a regular file: ${printable(target.requested)}`, "not_file");
  const snap = await readSnapshot(target);
  checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
  const [r] = await commitChanges([{ kind: "delete", target, base: snap }]);
  return r!;
}

export interface DeleteDirectoryOptions {
  /** Delete a non-empty directory with everything below it. */
  recursive?: boolean;
  signal?: AbortSignal;
}

export interface DirectoryRemoval {
  /** Every removed entry relative to the deleted directory ("" is the directory itself), sorted. */
  entries: { rel: string; type: "file" | "dir" | "symlink" | "other" }[];
  files: number;
  dirs: number;
}

/**
 * Deletes a directory: empty, or with `recursive` everything below it. Refuses a root. Symlinks inside
 * are removed as links and never followed; each directory is re-checked to still be the real directory
 * inside the one being deleted before it is listed or emptied, so a directory swapped for a link midway
 * is not followed out.
 */
export async function deleteDirectory(
  target: ResolvedPath,
  roots: readonly { real: string }[],
  opts: DeleteDirectoryOptions = {},
): Promise<DirectoryRemoval> {
  if (target.relative === "" || roots.some((r) => r.real === target.real))
    throw new ToolError(`Refusing to delete a root directory: ${printable(target.requested)}`, "denied");
  const st = await fs.lstat(target.real).catch((err) => {
    if (isErrno(err, "ENOENT"))
      throw new ToolError(`No such directory: ${printable(target.requested)}`, "not_found");
    throw err;
  });
  if (!st.isDirectory())
    throw new ToolError(`Not a directory: ${printable(target.requested)} (use delete_file)`, "not_directory");
  const out: DirectoryRemoval = { entries: [], files: 0, dirs: 0 };
  const top = target.real;
  const collect = async (dir: string, rel: string): Promise<void> => {
    opts.signal?.throwIfAborted();
    await checkStillInside(dir, top, target.requested);
    const names = (await fs.readdir(dir)).sort();
    for (const name of names) {
      const p = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = await fs.lstat(p);
      if (s.isDirectory()) {
        out.entries.push({ rel: r, type: "dir" });
        await collect(p, r);
      } else
        out.entries.push({ rel: r, type: s.isFile() ? "file" : s.isSymbolicLink() ? "symlink" : "other" });
    }
  };
  await collect(top, "");
  if (out.entries.length > 0 && !opts.recursive)
    throw new ToolError(
      `Directory not empty: ${printable(target.requested)} (${out.entries.length} entries). Pass recursive: true to delete it with everything in it.`,
      "conflict",
    );
  // Deepest first, so every directory is empty when removed.
  for (const e of [...out.entries].reverse()) {
    opts.signal?.throwIfAborted();
    const p = path.join(top, ...e.rel.split("/"));
    await checkStillInside(path.dirname(p), top, target.requested);
    if (e.type === "dir") {
      await fs.rmdir(p);
      out.dirs++;
    } else {
      await fs.unlink(p);
      out.files++;
    }
  }
  await fs.rmdir(top);
  out.dirs++;
  out.entries.unshift({ rel: "", type: "dir" });
  return out;
}

async function checkStillInside(dir: string, top: string, requested: string): Promise<void> {
  const st = await fs.lstat(dir);
  const real = await fs.realpath(dir);
  if (!st.isDirectory() || real !== dir || !isWithin(real, top))
    throw new ToolError(
      `Access denied - the directory changed while it was being deleted: ${printable(requested)}`,
      "denied",
    );
}
