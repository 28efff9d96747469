/**
 * Identities of file versions: a stat fingerprint and sha256 of bytes in memory. Hashes computed while
 * reading a file (its state for a precondition or a read reply) are text/file-hash.ts's, on the one reader.
 */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";

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
