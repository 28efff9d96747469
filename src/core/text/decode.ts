/**
 * The one decode policy of every text read (whole, head, tail, ranges, numbering, grep context, workspace
 * reads, edits, code tools): bytes become text only when they are valid in the file's encoding; otherwise
 * the read is refused with `notTextError`, which names the requested path and says what to do. Never a
 * lossy U+FFFD: a model that sees `caf\uFFFD` cannot tell a bad byte from the text, and an edit built on
 * it would corrupt the file. Encodings: UTF-8, with or without a BOM (a BOM is shown as U+FEFF at the start
 * of line 1, as the official server shows it). Issue #25's legacy encodings plug in at `decodeText`.
 */
import { isUtf8 } from "node:buffer";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";

export type TextEncoding = "utf-8" | "utf-8-bom";

/** The encoding a file's first bytes announce (its BOM); UTF-8 without one. */
export function encodingOf(head: Uint8Array): TextEncoding {
  return head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? "utf-8-bom" : "utf-8";
}

/** The refusal of a file whose bytes are not text in its encoding. */
export function notTextError(requested: string): ToolError {
  const shown = printable(requested);
  return new ToolError(
    `Not a UTF-8 text file: ${shown}. mcpfs reads UTF-8 text only; convert the file to UTF-8 to read or edit it.`,
    "not_utf8",
    { path: requested },
  );
}

/**
 * Decodes `bytes` (whole characters: callers cut at `charBoundary`) in `encoding`; throws `notTextError`
 * naming `requested` when they are not valid text in it.
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding, requested: string): string {
  // Both UTF-8 forms decode alike: the BOM is content (U+FEFF). A lenient decode marks every invalid byte
  // with U+FFFD, so only a text holding one needs the (SIMD) validity check: a line at a time, that is half
  // the cost of a fatal TextDecoder.
  if (encoding !== "utf-8" && encoding !== "utf-8-bom") throw notTextError(requested);
  const b = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = b.toString("utf8");
  if (text.includes("\uFFFD") && !isUtf8(b)) throw notTextError(requested);
  return text;
}

/** Length of the longest prefix of `b` that does not end inside a UTF-8 sequence. */
export function charBoundary(b: Uint8Array): number {
  let i = b.length;
  // Step back over up to 3 continuation bytes to the lead byte of the last sequence.
  for (let back = 0; back < 4 && i > 0; back++) {
    const c = b[i - 1]!;
    if ((c & 0xc0) !== 0x80) {
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
      return back + 1 >= need ? b.length : i - 1;
    }
    i--;
  }
  return b.length;
}

/** Index of the first byte at or after `from` that starts a character (skips continuation bytes). */
export function charStart(b: Uint8Array, from: number): number {
  let i = from;
  while (i < b.length && i < from + 3 && (b[i]! & 0xc0) === 0x80) i++;
  return i;
}

/**
 * Checks streamed bytes against the decode policy without keeping them (counting lines of a whole tree,
 * sniffing a sample): a character split between chunks is carried to the next one.
 */
export class TextCheck {
  #carry: Buffer = Buffer.alloc(0);
  #ok = true;

  push(chunk: Uint8Array): this {
    if (!this.#ok) return this;
    let b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#carry.length > 0) {
      // The carried character's lead byte says how many bytes complete it (at most 3).
      const lead = this.#carry[0]!;
      const need = (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2) - this.#carry.length;
      if (b.length < need) {
        this.#carry = Buffer.concat([this.#carry, b]);
        return this;
      }
      this.#ok = isUtf8(Buffer.concat([this.#carry, b.subarray(0, need)]));
      this.#carry = Buffer.alloc(0);
      b = b.subarray(need);
    }
    const cut = charBoundary(b);
    if (this.#ok && !isUtf8(b.subarray(0, cut))) this.#ok = false;
    else if (cut < b.length) this.#carry = Buffer.from(b.subarray(cut));
    return this;
  }

  /** Whether everything pushed is text; `complete`: the bytes end there (a cut last character fails). */
  ok(complete = true): boolean {
    return this.#ok && (!complete || this.#carry.length === 0);
  }
}
