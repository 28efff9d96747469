import { ToolError } from "../errors.js";
import { type Fingerprint, fingerprintOf, sha256Of } from "../fs/hash.js";
import { openVerifiedIfExists } from "../fs/safe-open.js";
import type { FileState } from "../text/file-hash.js";
import { readBytes } from "../text/reader.js";
import type { ResolvedPath } from "../workspace.js";

/**
 * One version of a file read whole: the bytes, their hash, and the fingerprint of the inode they came
 * from. A change computed from a snapshot is committed only while the file still has that fingerprint.
 */
export interface Snapshot extends FileState {
  readonly data: Buffer;
  readonly fingerprint: Fingerprint;
  /** Permission bits (kept by every rewrite). */
  readonly mode: number;
}

export interface SnapshotOptions {
  /** Refuse files larger than this many bytes. */
  maxBytes?: number;
  /** What the refusal of a larger file says (default: it cannot be changed in one piece). */
  tooLarge?: "change_whole" | "code_size";
}

/** Reads a regular file whole through a verified descriptor; `undefined` when it does not exist. */
export async function readSnapshot(
  target: ResolvedPath,
  opts: SnapshotOptions = {},
): Promise<Snapshot | undefined> {
  const fh = await openVerifiedIfExists(target);
  if (!fh) return undefined;
  try {
    const st = await fh.stat({ bigint: true });
    if (st.isDirectory()) throw new ToolError("not_file", { path: target.requested });
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    if (opts.maxBytes !== undefined && st.size > BigInt(opts.maxBytes))
      throw new ToolError("too_large", {
        reason: opts.tooLarge ?? "change_whole",
        path: target.requested,
        actual: Number(st.size),
        limit: opts.maxBytes,
      });
    const data = await readBytes(fh, Number(st.size));
    const after = await fh.stat({ bigint: true });
    // A writer that raced the read would leave a different fingerprint: refuse rather than hash a mix.
    const fingerprint = fingerprintOf(after);
    if (after.size !== st.size || after.mtimeNs !== st.mtimeNs || after.ctimeNs !== st.ctimeNs)
      throw new ToolError("conflict", { reason: "changed_while_reading", path: target.requested });
    return {
      data,
      sha256: sha256Of(data),
      size: data.length,
      mtime: new Date(Number(st.mtimeMs)).toISOString(),
      fingerprint,
      mode: Number(st.mode) & 0o7777,
    };
  } finally {
    await fh.close();
  }
}
