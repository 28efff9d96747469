import { ToolError } from "../errors.js";
import { codecOf, decodeFile, encodeText } from "../text/decode.js";
import { parseDoc } from "../text/document.js";
import type { ResolvedPath } from "../workspace.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot } from "./snapshot.js";
import { type ChangeResult, commitChanges } from "./transaction.js";

export interface AppendOptions {
  /** Refuse when the file does not exist (default: create it). */
  mustExist?: boolean;
  /** Only append while the file still has this sha256. */
  expectedSha256?: string;
  /** Largest file appended to (the file is rewritten atomically, so it is read whole). */
  maxBytes?: number;
  /** Create missing parent directories of a new file. */
  createParents?: boolean;
  /** The file's encoding when it is not UTF-8 (decode.ts); the appended text is written in it. */
  encoding?: string;
}

/**
 * Appends text verbatim (no separator is added) with the same crash safety as a write: the whole new
 * content is staged and renamed in (through `commitChanges`), so a kill never leaves half an append, and an
 * append that raced another writer is refused rather than losing that writer's change. In a CRLF file the
 * appended text's line breaks become CRLF too, so the file keeps one style.
 */
export async function appendToFile(
  target: ResolvedPath,
  text: string,
  opts: AppendOptions = {},
): Promise<ChangeResult> {
  const snap = await readSnapshot(target, { maxBytes: opts.maxBytes });
  if (!snap && opts.mustExist) throw new ToolError("not_found", { reason: "file", path: target.requested });
  checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: snap });
  if (!snap) {
    const [r] = await commitChanges([
      { kind: "write", target, data: text, base: null, createParents: opts.createParents },
    ]);
    return r!;
  }
  const codec = await codecOf(snap.data, target.requested, opts.encoding);
  // latin1 maps each byte to one character: the terminators of an ASCII-compatible encoding are found in
  // it; UTF-16/32 text is decoded first.
  const shown = codec.bytewise
    ? snap.data.toString("latin1")
    : (await decodeFile(snap.data, target.requested, opts.encoding)).text;
  const crlf = parseDoc(shown).eol === "\r\n";
  const added = crlf ? text.replace(/\r?\n/g, "\r\n") : text;
  const data = Buffer.concat([snap.data, encodeText(added, codec, target.requested)]);
  const [r] = await commitChanges([{ kind: "write", target, data, base: snap }]);
  return r!;
}

/**
 * Appends to an existing regular file (mcp-workspace's append_file). Throws ToolError `not_found` or
 * `not_file`; `conflict` when `expectedSha256` no longer matches.
 */
export async function appendText(
  target: ResolvedPath,
  text: string,
  opts: Omit<AppendOptions, "mustExist"> = {},
): Promise<ChangeResult> {
  return appendToFile(target, text, { ...opts, mustExist: true });
}
