import { encodeLike } from "../text/decode.js";
import { fileState } from "../text/file-hash.js";
import type { ResolvedPath } from "../workspace.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot, type Snapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

/** The largest existing file whose encoding a write keeps (it is read whole to learn it). */
const KEEP_LIMIT = 64 * 1024 * 1024;

export interface WriteTextOptions {
  /** Only write while the file still has this sha256 (refused, `conflict`, otherwise or when it is gone). */
  expectedSha256?: string;
  /** Create missing parent directories. */
  createParents?: boolean;
  /** The encoding of an existing file that is not UTF-8: text written over it is encoded in it. */
  encoding?: string;
}

/**
 * Creates or overwrites a file atomically (temp + fsync + rename, mode kept) and reports the hashes before
 * and after. With `expectedSha256` the write is committed only while the file is still the version the
 * client read: checked against the hash first, then against that version's inode just before the rename.
 */
export async function writeText(
  target: ResolvedPath,
  text: string | Uint8Array,
  opts: WriteTextOptions = {},
): Promise<ChangeResult> {
  // Text over an existing file keeps that file's encoding (and its BOM): it is read first.
  const keep = typeof text === "string" && target.exists;
  const encoded = (snap: Snapshot | undefined) =>
    snap && keep ? encodeLike(snap.data, text as string, target.requested, opts.encoding) : text;
  if (opts.expectedSha256 !== undefined) {
    const snap = await readSnapshot(target);
    checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
    const data = await encoded(snap);
    const [r] = await commitChanges([
      { kind: "write", target, data, base: snap, createParents: opts.createParents },
    ]);
    return r!;
  }
  if (keep) {
    // A file too large to read whole (or not a file) is replaced as given, as every write did before.
    const snap = await readSnapshot(target, { maxBytes: KEEP_LIMIT }).catch(() => undefined);
    if (snap) {
      // No precondition: last writer wins; the old hash is only for the audit log.
      const data = await encoded(snap);
      const [r] = await commitChanges([{ kind: "write", target, data, createParents: opts.createParents }]);
      return { ...r!, before: snap.sha256 };
    }
  }
  // No precondition: last writer wins; the old hash is only for the audit log.
  const before = await fileState(target).catch(() => undefined);
  const [r] = await commitChanges([{ kind: "write", target, data: text, createParents: opts.createParents }]);
  return before ? { ...r!, before: before.sha256 } : r!;
}
