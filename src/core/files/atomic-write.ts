import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { tempPathBeside, verifyDescriptor } from "./safe-open.js";

export interface WriteOptions {
  /** Fail if the target exists (new files are created exclusively). */
  exclusive?: boolean;
  /** Mode for a new file; an existing file keeps its own mode bits. */
  mode?: number;
}

export interface StagedWrite {
  readonly target: ResolvedPath;
  readonly temp: string;
  readonly exclusive: boolean;
}

/**
 * Crash-safe write: the content goes to a temp file in the same directory (created O_EXCL|O_NOFOLLOW and
 * verified to be inside the root), is fsynced, then renamed over the target. A crash leaves either the old
 * or the new file, never a torn one. Mode bits of an existing file are kept.
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
  let mode = opts.mode ?? 0o666 & ~process.umask();
  const existing = await fs.lstat(target.real).catch((err) => {
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
  const dir = path.dirname(target.real);
  const dirStat = await fs.stat(dir).catch(() => undefined);
  if (!dirStat?.isDirectory())
    throw new ToolError(`Parent directory does not exist: ${printable(target.requested)}`, "not_found");

  const temp = tempPathBeside(target.real);
  const fh = await fs.open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    await verifyDescriptor(fh, target.root.real, target.requested, temp);
    await fh.writeFile(data);
    await fh.chmod(mode);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await fs.unlink(temp).catch(() => {});
    throw err;
  }
  await fh.close();
  return { target, temp, exclusive: !existing || opts.exclusive === true };
}

/** Second half: rename (or, for an exclusive create, hard-link so an existing file is never replaced). */
export async function commitStaged(staged: StagedWrite): Promise<void> {
  const { target, temp } = staged;
  try {
    if (staged.exclusive) {
      await fs.link(temp, target.real);
      await fs.unlink(temp);
    } else {
      await fs.rename(temp, target.real);
    }
  } catch (err) {
    await fs.unlink(temp).catch(() => {});
    if (isErrno(err, "EEXIST"))
      throw new ToolError(`Already exists: ${printable(target.requested)}`, "exists");
    throw err;
  }
  await syncDir(path.dirname(target.real));
}

export async function discardStaged(staged: StagedWrite): Promise<void> {
  await fs.unlink(staged.temp).catch(() => {});
}

async function syncDir(dir: string): Promise<void> {
  try {
    const dh = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    // Directory fsync is best effort (not supported everywhere).
  }
}
