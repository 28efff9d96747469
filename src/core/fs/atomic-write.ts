import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import type { ResolvedPath } from "../workspace.js";
import { checkDescriptor, pinParent, TEMP_NAME, tempPathBeside } from "./safe-open.js";

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
 * First half of a crash-safe write: the content goes to a temp file in the target's directory (created
 * O_EXCL|O_NOFOLLOW through the directory pinned by descriptor, verified to be inside the root) and is
 * fsynced; the target is untouched. The transaction (transaction.ts) renames it over the target, so a crash
 * leaves the old or the new file, never a torn one. Mode bits of an existing file are kept.
 */
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
      throw new ToolError("not_found", { reason: "parent", path: target.requested });
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
      if (opts.exclusive) throw new ToolError("exists", { path: target.requested });
      if (existing.isDirectory()) throw new ToolError("not_file", { path: target.requested });
      if (!existing.isFile())
        throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
      mode = existing.mode & 0o7777;
    }
    const tempName = path.basename(tempPathBeside(target.real));
    const fh = await fs.open(
      dir.at(tempName),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      checkDescriptor(fh.fd, { ...target, real: path.join(dir.real, tempName) });
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
    // No descriptor is held between the halves: the committer re-pins the directory.
    await dir.close();
  }
}

/** Removes a staged temp file that will not be committed. */
export async function discardStaged(staged: StagedWrite): Promise<void> {
  await fs.unlink(staged.temp).catch(() => {});
}

/** Hidden temps older than this are leftovers of a killed process (a live change takes milliseconds). */
const STALE_TEMP_MS = 15 * 60 * 1000;

/**
 * Removes hidden `.mcpfs-*.tmp` files in one directory that no live change can still own: regular files
 * whose status changed more than `olderThanMs` ago (a backup link's ctime moves when it is made, so a
 * running change's backups always look young). Returns how many were removed. The transaction calls it on
 * the directories a change touches (mutate/transaction.ts); `olderThanMs` and `now` let a test make a
 * temp old without waiting.
 */
export async function sweepStaleTemps(
  dir: string,
  olderThanMs: number = STALE_TEMP_MS,
  now: number = Date.now(),
): Promise<number> {
  let removed = 0;
  const dh = await fs.opendir(dir);
  for await (const e of dh) {
    if (!TEMP_NAME.test(e.name) || !e.isFile()) continue;
    const p = path.join(dir, e.name);
    const st = await fs.lstat(p).catch(() => undefined);
    if (!st?.isFile() || now - Math.max(st.ctimeMs, st.mtimeMs) < olderThanMs) continue;
    await fs.unlink(p).then(
      () => removed++,
      () => {},
    );
  }
  return removed;
}
