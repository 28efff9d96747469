import { createTwoFilesPatch } from "diff";
import { ToolError, ToolErrorGroup } from "../errors.js";
import { checkExpected } from "../mutate/precondition.js";
import { readSnapshot } from "../mutate/snapshot.js";
import { type Change, type ChangeResult, commitChanges, type JournalScope } from "../mutate/transaction.js";
import { printable } from "../paths.js";
import { decodeForEdit, encodeText } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";

export interface FileEdits<E> {
  target: ResolvedPath;
  edits: E;
  /** Only change the file while it still has this sha256. */
  expectedSha256?: string;
  /** The file's encoding when it is not UTF-8 (decode.ts). */
  encoding?: string;
}

/** The edit engine: applies one file's edits to its text or throws a ToolError naming what did not match. */
export type ApplyEdits<E> = (text: string, edits: E, requested: string) => string;

export interface MultiEditResult {
  /** Unified diff of every file, in order (what was, or with dryRun would be, changed). */
  diff: string;
  /** What was written (empty for a dry run). */
  changes: ChangeResult[];
}

/**
 * Edits several files all-or-nothing: every file is read and every edit applied in memory first; the
 * first failure (or all of them, one line each) refuses the whole request with nothing written; then all
 * files are committed together through `commitChanges`.
 */
export async function editFiles<E>(
  files: readonly FileEdits<E>[],
  apply: ApplyEdits<E>,
  opts: {
    dryRun?: boolean;
    maxBytes?: number;
    /** Diff of one file (default: a plain unified diff named by the requested path). */
    makeDiff?: (name: string, before: string, after: string) => string;
    /** Atomic across a killed process too (see transaction.ts). */
    journal?: JournalScope;
  } = {},
): Promise<MultiEditResult> {
  if (files.length === 0) throw new ToolError("invalid", { reason: "no_files" });
  const errors: ToolError[] = [];
  const who: string[] = [];
  const changes: Change[] = [];
  const diffs: string[] = [];
  for (const f of files) {
    try {
      const snap = await readSnapshot(f.target, { maxBytes: opts.maxBytes });
      if (!snap) throw new ToolError("not_found", { reason: "file", path: f.target.requested });
      checkExpected({ requested: f.target.requested, expected: f.expectedSha256, current: snap });
      // The reads' decode policy: a file that is not text is refused, never rewritten from a lossy decode.
      const { text: before, codec } = await decodeForEdit(snap.data, f.target.requested, f.encoding);
      const after = apply(before, f.edits, f.target.requested);
      const name = f.target.requested;
      diffs.push(
        opts.makeDiff
          ? opts.makeDiff(name, before, after)
          : createTwoFilesPatch(name, name, before, after, "original", "modified"),
      );
      if (after !== before)
        changes.push({ kind: "write", target: f.target, data: encodeText(after, codec, name), base: snap });
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      errors.push(err);
      who.push(printable(f.target.requested));
    }
  }
  if (errors.length > 0) {
    const named = (msgs: readonly string[]) =>
      msgs.map((m, i) => (m.includes(who[i]!) ? m : `${who[i]}: ${m}`));
    throw new ToolErrorGroup(
      errors,
      (msgs) =>
        msgs.length === 1
          ? `${named(msgs)[0]}\nNo file was changed.`
          : `${msgs.length} of ${files.length} files could not be edited; no file was changed:\n${named(msgs)
              .map((e) => `- ${e}`)
              .join("\n")}`,
      "conflict",
    );
  }
  const diff = diffs.join("");
  if (opts.dryRun) return { diff, changes: [] };
  return { diff, changes: await commitChanges(changes, { journal: opts.journal }) };
}
