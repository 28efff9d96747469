import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { type PinnedDir, pinParent, placeNoReplace, tempPathBeside, verifyDescriptor } from "./safe-open.js";

export interface WriteOptions {
  /** Fail if the target exists (new files are created exclusively). */
  exclusive?: boolean;
  /** Mode for a new file; an existing file keeps its own mode bits. */
  mode?: number;
}

export interface StagedWrite {
  readonly target: ResolvedPath;
  /** Where the temp file is (by its directory's path, for messages and cleanup by others). */
  readonly temp: string;
  readonly exclusive: boolean;
  readonly tempName: string;
  readonly name: string;
}

/**
 * Crash-safe write: the content goes to a temp file in the same directory (created O_EXCL|O_NOFOLLOW and
 * verified to be inside the root), is fsynced, then renamed over the target. A crash leaves either the old
 * or the new file, never a torn one. Mode bits of an existing file are kept. Every step goes through the
 * target's directory pinned by descriptor, so a directory swapped for a symlink meanwhile cannot redirect
 * even the temp file outside the root.
 */
export async function writeFileAtomic(
  target: ResolvedPath,
  data: string | Uint8Array,
  opts: WriteOptions = {},
): Promise<void> {
  const staged = await stageWrite(target, data, opts);
  await commitStaged(staged);
}

/** First half of an atomic write: the temp file is complete and durable, the target untouched. */
export async function stageWrite(
  target: ResolvedPath,
  data: string | Uint8Array,
  opts: WriteOptions = {},
): Promise<StagedWrite> {
  let pinned: Awaited<ReturnType<typeof pinParent>>;
  try {
    pinned = await pinParent(target.real, target.root, target.requested);
  } catch (err) {
    if (isErrno(err, "ENOENT"))
      throw new ToolError(`Parent directory does not exist: ${printable(target.requested)}`, "not_found");
    throw err;
  }
  const { dir, name } = pinned;
  try {
    let mode = opts.mode ?? 0o666 & ~process.umask();
    const existing = await fs.lstat(dir.at(name)).catch((err) => {
      if (isErrno(err, "ENOENT")) return undefined;
      throw err;
    });
    if (existing) {
      if (opts.exclusive) throw new ToolError(`Already exists: ${printable(target.requested)}`, "exists");
      if (existing.isDirectory())
        throw new ToolError(`Is a directory, not a file: ${printable(target.requested)}`, "not_file");
      if (!existing.isFile())
        throw new ToolError(`Not a regular file: ${printable(target.requested)}`, "not_file");
      mode = existing.mode & 0o7777;
    }
    const tempName = path.basename(tempPathBeside(target.real));
    const fh = await fs.open(
      dir.at(tempName),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await verifyDescriptor(fh, target.root, target.requested, dir.at(tempName));
      await fh.writeFile(data);
      await fh.chmod(mode);
      await fh.sync();
    } catch (err) {
      await fh.close().catch(() => {});
      await fs.unlink(dir.at(tempName)).catch(() => {});
      throw err;
    }
    await fh.close();
    return {
      target,
      temp: path.join(dir.real, tempName),
      exclusive: !existing || opts.exclusive === true,
      tempName,
      name,
    };
  } finally {
    // No descriptor is held between the halves (callers may commit their own way); commit re-pins.
    await dir.close();
  }
}

/** Second half: rename (or, for an exclusive create, hard-link so an existing file is never replaced). */
export async function commitStaged(staged: StagedWrite): Promise<void> {
  const { target, tempName, name } = staged;
  let dir: PinnedDir;
  try {
    ({ dir } = await pinParent(target.real, target.root, target.requested));
  } catch (err) {
    await fs.unlink(staged.temp).catch(() => {});
    throw err;
  }
  try {
    if (staged.exclusive) {
      await placeNoReplace(target.root, dir.at(tempName), dir.at(name));
    } else {
      await fs.rename(dir.at(tempName), dir.at(name));
    }
    await dir.sync();
  } catch (err) {
    await fs.unlink(dir.at(tempName)).catch(() => {});
    if (isErrno(err, "EEXIST"))
      throw new ToolError(`Already exists: ${printable(target.requested)}`, "exists");
    throw err;
  } finally {
    await dir.close();
  }
}

export async function discardStaged(staged: StagedWrite): Promise<void> {
  await fs.unlink(staged.temp).catch(() => {});
}
