/**
 * The one way structured edits change a file: read it once through the verified open, refuse a stale
 * `expectedSha256`, decode strictly as UTF-8 (a lossy decode would corrupt the rewrite), compute the new
 * text, diff it, and commit through the transaction (lost-update check, undo journal). The BOM is kept.
 */

import { unifiedDiff } from "../edit/diff.js";
import { noSuchPathError } from "../errors.js";
import { checkExpected } from "../mutate/precondition.js";
import { readSnapshot } from "../mutate/snapshot.js";
import { type ChangeResult, commitChanges } from "../mutate/transaction.js";
import { type Codec, decodeForEdit, encodeText } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";

export interface RewriteOptions {
  expectedSha256?: string;
  dryRun?: boolean;
  /** Name in the diff headers. */
  diffName: string;
  /** The file's encoding when it is not UTF-8 (decode.ts). */
  encoding?: string;
}

export interface RewriteResult {
  diff: string;
  written: boolean;
  /** sha256 of the file after the call (before, when nothing was written). */
  sha256: string;
  change?: ChangeResult;
}

/** The text without its BOM, by the reads' decode policy (core/text: a file that is not text is refused). */
async function decoded(
  data: Uint8Array,
  requested: string,
  encoding?: string,
): Promise<{ text: string; bom: boolean; codec: Codec }> {
  const { text, codec } = await decodeForEdit(data, requested, encoding);
  const bom = text.startsWith("\uFEFF");
  return { bom, codec, text: bom ? text.slice(1) : text };
}

/** The file's text (without BOM), read whole through the verified open. */
export async function readUtf8(
  target: ResolvedPath,
  encoding?: string,
): Promise<{ text: string; sha256: string }> {
  const snap = await readSnapshot(target);
  if (!snap) throw noSuchPathError(target.requested);
  return { text: (await decoded(snap.data, target.requested, encoding)).text, sha256: snap.sha256 };
}

export async function rewriteText(
  target: ResolvedPath,
  opts: RewriteOptions,
  compute: (text: string) => string | Promise<string>,
): Promise<RewriteResult> {
  const snap = await readSnapshot(target);
  checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
  if (!snap) throw noSuchPathError(target.requested);
  const { bom, text, codec } = await decoded(snap.data, target.requested, opts.encoding);
  const out = await compute(text);
  const diff = unifiedDiff(opts.diffName, text, out);
  if (opts.dryRun || out === text) return { diff, written: false, sha256: snap.sha256 };
  const data = encodeText((bom ? "\uFEFF" : "") + out, codec, target.requested);
  const [change] = await commitChanges([{ kind: "write", target, data, base: snap }]);
  return { diff, written: true, sha256: change!.after!, change };
}
