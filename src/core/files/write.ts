import { encodeLike } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";
import { fileState } from "./hash.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

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
  // Text over an existing file keeps that file's encoding (and its BOM): read first.
  const keep = typeof text === "string" && target.exists;
  if (opts.expectedSha256 !== undefined || keep) {
    const snap = await readSnapshot(target);
    checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
    const data =
      snap && keep ? await encodeLike(snap.data, text as string, target.requested, opts.encoding) : text;
    const [r] = await commitChanges([
      { kind: "write", target, data, base: snap, createParents: opts.createParents },
    ]);
    return r!;
  }
  // No precondition: last writer wins; the old hash is only for the audit log.
  const before = await fileState(target).catch(() => undefined);
  const [r] = await commitChanges([{ kind: "write", target, data: text, createParents: opts.createParents }]);
  return before ? { ...r!, before: before.sha256 } : r!;
}
