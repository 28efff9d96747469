import { createHash } from "node:crypto";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { commitStaged, discardStaged, stageWrite } from "./atomic-write.js";
import { unifiedDiff } from "./diff.js";
import { applyEdits, type Edit, type EditMatch, type EditOptions } from "./edit.js";
import { openVerified } from "./safe-open.js";
import { decodeText, encodeText, type TextFormat } from "./text-format.js";

export interface EditFileOptions extends EditOptions {
  /** Compute the diff, write nothing. */
  dryRun?: boolean;
  /** Name used in the diff headers (default: the real path, as the official server prints). */
  diffName?: string;
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
}

/**
 * Applies edits to a text file: read once through a verified descriptor, edit the LF body in memory, write
 * back atomically with the file's own line endings and BOM. A file changed by someone else between read
 * and write is refused rather than overwritten.
 */
export async function editFile(
  target: ResolvedPath,
  edits: readonly Edit[],
  opts: EditFileOptions = {},
): Promise<EditFileResult> {
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  let bytes: Buffer;
  let before: { ino: number; size: number; mtimeMs: number };
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError(`Not a regular file: ${printable(target.requested)}`, "not_file");
    bytes = await fh.readFile();
    before = { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    await fh.close();
  }
  const original = bytes.toString("utf8");
  const { body, format } = decodeText(original);
  const result = applyEdits(body, edits, opts);
  const diff = unifiedDiff(opts.diffName ?? target.real, body, result.text);
  const sha = (b: string | Buffer) => createHash("sha256").update(b).digest("hex");
  if (opts.dryRun || !result.changed) {
    return {
      diff,
      changed: result.changed,
      written: false,
      format,
      matches: result.matches,
      sha256: sha(bytes),
    };
  }
  const out = encodeText(result.text, format);
  const staged = await stageWrite(target, out);
  const now = await fs.lstat(target.real).catch(() => undefined);
  if (!now || now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
    await discardStaged(staged);
    throw new ToolError(
      `The file changed while it was being edited: ${printable(target.requested)}; read it again and retry`,
      "conflict",
    );
  }
  await commitStaged(staged);
  return { diff, changed: true, written: true, format, matches: result.matches, sha256: sha(out) };
}
