import { noSuchPathError } from "../errors.js";
import { checkExpected } from "../mutate/precondition.js";
import { readSnapshot } from "../mutate/snapshot.js";
import { type ChangeResult, commitChanges } from "../mutate/transaction.js";
import { decodeForEdit, encodeText } from "../text/decode.js";
import type { TextFormat } from "../text/document.js";
import type { ResolvedPath } from "../workspace.js";
import { gitStyleDiff, unifiedDiff } from "./diff.js";
import { type Edit, type EditMatch, type EditOptions, editKeepingEndings } from "./edit.js";

export interface EditFileOptions extends EditOptions {
  /** Compute the diff, write nothing. */
  dryRun?: boolean;
  /** Name used in the diff headers (default: the real path, as the official server prints). */
  diffName?: string;
  /** Only edit while the file still has this sha256 (from an earlier read); refused otherwise. */
  expectedSha256?: string;
  /** `official` (default): the official server's layout; `git`: `--- a/<name>` / `+++ b/<name>` (difflib). */
  diffStyle?: "official" | "git";
  /** The file's encoding when it is not UTF-8 (decode.ts: a BOM or valid UTF-8 wins). */
  encoding?: string;
}

export interface EditFileResult {
  /** Unified diff of the LF-normalised contents (header only when nothing changed). */
  diff: string;
  changed: boolean;
  /** The file was rewritten (false for dryRun and for edits that change nothing). */
  written: boolean;
  format: TextFormat;
  matches: EditMatch[];
  /** sha256 of the file's bytes after the call (before, for dryRun or no change). */
  sha256: string;
  /** sha256 of the file's bytes before the call. */
  before: string;
  /** What was written, for the audit log. */
  change?: ChangeResult;
}

/**
 * Applies edits to a text file: read once through a verified descriptor, edit the LF body in memory, write
 * back atomically with each line's own ending and the BOM through `commitChanges`, which refuses (rather
 * than overwrites) a file changed by someone else between the read and the write. With `expectedSha256`
 * the edit is also refused when the file is no longer the version the client read.
 */
export async function editFile(
  target: ResolvedPath,
  edits: readonly Edit[],
  opts: EditFileOptions = {},
): Promise<EditFileResult> {
  const snap = await readSnapshot(target);
  if (!snap) {
    checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: undefined });
    // Worded like any missing path, as the read-based version of this tool was.
    throw noSuchPathError(target.requested);
  }
  checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
  // The read's decode policy: a file that is not text is refused, never decoded lossily and rewritten.
  const { text: original, codec } = await decodeForEdit(snap.data, target.requested, opts.encoding);
  const { body, result, text: out, format } = editKeepingEndings(original, edits, opts);
  const name = opts.diffName ?? target.real;
  const diff =
    opts.diffStyle === "git" ? gitStyleDiff(name, body, result.text) : unifiedDiff(name, body, result.text);
  const common = { diff, changed: result.changed, format, matches: result.matches, before: snap.sha256 };
  if (opts.dryRun || !result.changed) return { ...common, written: false, sha256: snap.sha256 };
  const data = encodeText(out, codec, target.requested);
  const [change] = await commitChanges([{ kind: "write", target, data, base: snap }]);
  return { ...common, written: true, sha256: change!.after!, change };
}
