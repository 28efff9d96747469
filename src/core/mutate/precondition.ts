import { createTwoFilesPatch } from "diff";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import { TextCheck } from "../text/decode.js";
import type { FileState } from "../text/file-hash.js";
import { lfPieces, toLf } from "../text/lines.js";

/** Shortest hash prefix accepted: long enough that an accidental match is out of the question. */
const MIN_PREFIX = 8;
const DIFF_LINES = 40;
/** Content larger than this is not kept (read, or current on a refusal) for a lost-update diff. */
export const DIFF_TEXT_LIMIT = 512 * 1024;

/**
 * A lost-update refusal. Besides the message it carries the hash the client expected and the file's current
 * text (when small and textual), so a layer that remembers what the client read can add a diff of what
 * changed since (the core cannot: a hash does not give back the content).
 */
export class ConflictError extends ToolError {
  constructor(
    message: string,
    readonly requested: string,
    readonly expected: string,
    readonly currentText?: string,
  ) {
    super(message, "conflict");
    this.name = "ConflictError";
  }
}

/** The current content as text for a diff: small, UTF-8, not binary. */
export function textForDiff(data: Uint8Array | undefined): string | undefined {
  if (!data || data.length > DIFF_TEXT_LIMIT || data.includes(0)) return undefined;
  return new TextCheck().push(data).ok() ? Buffer.from(data).toString("utf8") : undefined;
}

/** Lower-cases a client's expected hash and drops an optional `sha256:` prefix; refuses anything else. */
function normalizeExpected(expected: string, requested: string): string {
  const h = expected
    .trim()
    .toLowerCase()
    .replace(/^sha256:/, "");
  if (!/^[0-9a-f]+$/.test(h) || h.length < MIN_PREFIX || h.length > 64)
    throw new ToolError("invalid", { reason: "expected_hash", path: requested, limit: MIN_PREFIX });
  return h;
}

export interface PreconditionInput {
  /** Path as the client sent it. */
  requested: string;
  /** The hash the client expects the file to have now (from an earlier read), if any. */
  expected?: string;
  /** The file's current state (`undefined` when it does not exist); with its bytes when read whole. */
  current: (FileState & { data?: Uint8Array }) | undefined;
  /** Current text, for the diff (default: decoded from `current.data`). */
  currentText?: string;
  /** The text the client based its change on, when it sent one (e.g. the old side of its edits). */
  basedOn?: string;
}

/**
 * Refuses a change when the file is no longer the version the client read. We cannot know the old content
 * from its hash, so the message states what we know about the current version (hash, size, mtime) and,
 * when the caller has the text the change was based on, a short diff from that text to the current one.
 */
export function checkExpected(input: PreconditionInput): void {
  if (input.expected === undefined) return;
  const want = normalizeExpected(input.expected, input.requested);
  const shown = printable(input.requested);
  if (!input.current)
    throw new ConflictError(
      `Refused: ${shown} no longer exists (expected sha256 ${short(want)}). Nothing was changed.`,
      input.requested,
      want,
    );
  if (input.current.sha256.startsWith(want)) return;
  let msg =
    `Refused: ${shown} changed since it was read (expected sha256 ${short(want)}, now ${short(input.current.sha256)}; ` +
    `${input.current.size} bytes, modified ${input.current.mtime}). Nothing was changed. ` +
    "Read the file again and redo the change against its current content.";
  const currentText = input.currentText ?? textForDiff(input.current.data);
  if (input.basedOn !== undefined && currentText !== undefined)
    msg += `\nWhat differs between the text your change was based on and the file now:\n${shortDiff(input.requested, input.basedOn, currentText)}`;
  throw new ConflictError(msg, input.requested, want, input.basedOn === undefined ? currentText : undefined);
}

function short(h: string): string {
  return h.length > 12 ? `${h.slice(0, 12)}…` : h;
}

/**
 * The refusal's message with a short diff from the version the client read (`readText`, remembered by the
 * caller) to the current one. Line-ending and BOM differences are not shown: the read may have been
 * returned with normalised line endings.
 */
export function conflictWithDiff(err: ConflictError, readText: string): string {
  if (err.currentText === undefined) return err.message;
  const norm = (t: string) => toLf(t.replace(/^\uFEFF/, ""));
  return `${err.message}\nWhat changed since your read:\n${shortDiff(err.requested, norm(readText), norm(err.currentText))}`;
}

/** A unified diff cut to a few dozen lines. */
export function shortDiff(name: string, from: string, to: string, maxLines = DIFF_LINES): string {
  // Bounded effort: a wholesale rewrite is summarised instead of diffed.
  const patch = createTwoFilesPatch(`${name} (as read)`, `${name} (now)`, from, to, "", "", {
    context: 1,
    maxEditLength: 5000,
  });
  if (patch === undefined) return "(too many differences to show)";
  const lines = lfPieces(patch).filter((l) => !l.startsWith("====="));
  if (lines.length <= maxLines) return lines.join("\n").trimEnd();
  return `${lines.slice(0, maxLines).join("\n")}\n… (${lines.length - maxLines} more diff lines)`;
}
