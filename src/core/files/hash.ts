import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { isErrno, ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { openVerified } from "./safe-open.js";

const CHUNK = 1024 * 1024;

/**
 * Cheap identity of one version of a file: device, inode, size, mtime and ctime in nanoseconds. ctime
 * cannot be set by a client (utimes updates it too), so an unchanged fingerprint means no write, chmod,
 * rename-over or restore of an old mtime happened since it was taken.
 */
export interface Fingerprint {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

/** What a read reply tells the client so a later change can say "only if the file is still this". */
export interface FileState {
  sha256: string;
  size: number;
  /** ISO 8601 modification time. */
  mtime: string;
}

export function fingerprintOf(st: BigIntStats): Fingerprint {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs };
}

export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return (
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.size === b.size &&
    a.mtimeNs === b.mtimeNs &&
    a.ctimeNs === b.ctimeNs
  );
}

export function sha256Of(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Streams an open file through sha256 (never holds more than one chunk). */
export async function hashHandle(fh: FileHandle): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  const buf = Buffer.allocUnsafe(CHUNK);
  let pos = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
    if (bytesRead === 0) break;
    hash.update(buf.subarray(0, bytesRead));
    pos += bytesRead;
  }
  return { sha256: hash.digest("hex"), size: pos };
}

/** sha256, size and mtime of a file opened safely; `undefined` when it does not exist. */
export async function fileState(target: ResolvedPath): Promise<FileState | undefined> {
  let fh: FileHandle;
  try {
    fh = await openVerified(target);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return undefined;
    throw err;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError(`Not a regular file: ${printable(target.requested)}`, "not_file");
    const { sha256, size } = await hashHandle(fh);
    return { sha256, size, mtime: st.mtime.toISOString() };
  } finally {
    await fh.close();
  }
}
