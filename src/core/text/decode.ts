/**
 * The one decode policy of every text read (whole, head, tail, ranges, numbering, grep context, workspace
 * reads, edits, code tools) and the one encoder of every edit. A file's encoding is, in this order: the one
 * its BOM announces (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE); UTF-8 when its bytes are valid UTF-8; otherwise
 * the encoding the caller names (a tool's `encoding`, or `--default-encoding`), decoded with iconv-lite;
 * without one, the read is refused with `notUtf8Error`, which names the requested path, lists the
 * encodings chardet guesses, and says how to pass one. Never a lossy U+FFFD: a model that sees `caf\uFFFD`
 * cannot tell a bad byte from the text, and an edit built on it would corrupt the file. A UTF-8 BOM is
 * shown as U+FEFF at the start of line 1, as the official server shows it. iconv-lite and chardet load
 * (`import()`) only when a file is not UTF-8 or a call names an encoding: a UTF-8 read never loads them.
 */
import { isUtf8 } from "node:buffer";
import { ToolError } from "../errors.js";

export type TextEncoding = "utf-8" | "utf-8-bom";

/** The encoding a file's first bytes announce (its BOM); UTF-8 without one. */
export function encodingOf(head: Uint8Array): TextEncoding {
  return head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? "utf-8-bom" : "utf-8";
}

/**
 * The refusal of a file whose bytes are not UTF-8 and that no encoding was named for, as thrown where no
 * sample is at hand (a line read); `notUtf8Error` is the full answer that the read-by-path functions give.
 */
export function notTextError(requested: string): ToolError {
  return new ToolError("not_utf8", { reason: "encoding_needed", path: requested });
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

type CodecLibs = typeof import("./codec-libs.js");

/** iconv-lite and chardet, loaded on first need. */
const loadLibs = (): Promise<CodecLibs> => import("./codec-libs.js");

/** How a file's bytes become text and back, in one encoding. */
export interface Codec {
  /** As reported (`get_file_info`, replies): "utf-8", "utf-16le", "shift_jis", ... */
  readonly name: string;
  /** Bytes of the BOM the file starts with (0: none). The decoded text keeps it as U+FEFF. */
  readonly bom: number;
  /** LF is the byte 0x0A and no other character holds that byte: lines split on bytes (not UTF-16/32). */
  readonly bytewise: boolean;
  /** The text of `bytes`, or undefined when they are not valid in this encoding. */
  decode(bytes: Uint8Array): string | undefined;
  /** The bytes of `text`, or undefined when the encoding cannot hold one of its characters. */
  encode(text: string): Buffer | undefined;
  /** A decoder of the bytes piece by piece (a character split between pieces is carried to the next). */
  decoder(): ChunkDecoder;
}

/**
 * Decodes a file's bytes in pieces, as `Codec.decode` does them whole: each call gives the text of the
 * characters completed so far, or undefined once bytes are not valid in the encoding (the rest is refused).
 */
export interface ChunkDecoder {
  write(bytes: Uint8Array): string | undefined;
  /** The end of the bytes: undefined when they stop inside a character. */
  end(): string | undefined;
}

const asBuffer = (b: Uint8Array): Buffer =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

function utf8Codec(bom: number): Codec {
  return {
    name: "utf-8",
    bom,
    bytewise: true,
    decode(bytes) {
      // A lenient decode marks every invalid byte with U+FFFD, so only a text holding one needs the (SIMD)
      // validity check: a line at a time, that is half the cost of a fatal TextDecoder.
      const b = asBuffer(bytes);
      const text = b.toString("utf8");
      return text.includes("\uFFFD") && !isUtf8(b) ? undefined : text;
    },
    encode: (text) => Buffer.from(text, "utf8"),
    decoder() {
      // Fatal: an invalid byte throws rather than becoming U+FFFD; a BOM stays U+FEFF as in `decode`.
      const d = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
      const run = (bytes?: Uint8Array) => {
        try {
          return bytes === undefined ? d.decode() : d.decode(bytes, { stream: true });
        } catch {
          return undefined;
        }
      };
      return { write: (bytes) => run(bytes), end: () => run() };
    },
  };
}

const UTF8 = utf8Codec(0);

/** iconv-lite's codec for `name`: strict (a byte the encoding lacks, or a character, is refused). */
function iconvCodec(libs: CodecLibs, name: string, bom: number): Codec {
  const { iconv } = libs;
  const wide = /^(utf-?16|utf-?32|ucs-?2|ucs-?4)/i.test(name);
  return {
    name: name.toLowerCase(),
    bom,
    bytewise: !wide,
    decode(bytes) {
      const text = iconv.decode(asBuffer(bytes), name, { stripBOM: false });
      // iconv-lite writes U+FFFD for a byte sequence the encoding lacks: refused, never shown.
      return text.includes("\uFFFD") ? undefined : text;
    },
    encode(text) {
      const out = iconv.encode(text, name, { addBOM: false });
      // iconv-lite writes "?" for a character the encoding lacks: found by the round trip.
      return iconv.decode(out, name, { stripBOM: false }) === text ? out : undefined;
    },
    decoder() {
      const d = iconv.getDecoder(name, { stripBOM: false });
      const checked = (text: string | undefined) => (text?.includes("\uFFFD") ? undefined : (text ?? ""));
      return { write: (bytes) => checked(d.write(asBuffer(bytes))), end: () => checked(d.end()) };
    },
  };
}

/** The encoding a file's first bytes announce with a BOM, and the BOM's length. */
export function bomOf(head: Uint8Array): { name: string; length: number } | undefined {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { name: "utf-8", length: 3 };
  if (a === 0xff && b === 0xfe && c === 0 && d === 0 && head.length >= 4)
    return { name: "utf-32le", length: 4 };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { name: "utf-32be", length: 4 };
  if (a === 0xff && b === 0xfe) return { name: "utf-16le", length: 2 };
  if (a === 0xfe && b === 0xff) return { name: "utf-16be", length: 2 };
  return undefined;
}

/** The codec of a named encoding; a name iconv-lite does not know is refused with the path. */
async function namedCodec(name: string, requested: string, bom = 0): Promise<Codec> {
  if (/^utf-?8$/i.test(name)) return utf8Codec(bom);
  const libs = await loadLibs();
  if (!libs.iconv.encodingExists(name))
    throw new ToolError("invalid", {
      reason: "unknown_encoding",
      path: requested,
      parameter: "encoding",
      name,
    });
  return iconvCodec(libs, name, bom);
}

/**
 * The decode policy of one read, for `LineReader` (synchronous per line): the BOM's encoding; else UTF-8
 * while the bytes read are valid UTF-8, then the named `fallback` for them and every later line (a line
 * already returned was valid UTF-8: in an ASCII-compatible encoding, almost always plain ASCII).
 */
export class Decoding {
  constructor(
    readonly requested: string,
    public codec: Codec,
    readonly fallback?: Codec,
  ) {}

  /** The text of `bytes`; throws `notTextError` (no fallback) or the fallback's refusal. */
  decode(bytes: Uint8Array): string {
    const text = this.codec.decode(bytes);
    if (text !== undefined) return text;
    if (this.fallback && this.codec !== this.fallback) {
      this.codec = this.fallback;
      return this.decode(bytes);
    }
    throw this.codec === UTF8 || this.codec.name === "utf-8"
      ? notTextError(this.requested)
      : invalidBytesError(this.requested, this.codec.name);
  }

  /** The text of a line's first bytes, cut at the budget: a character cut at the end is dropped. */
  decodePrefix(bytes: Uint8Array): string {
    if (this.codec.name === "utf-8") {
      const cut = bytes.subarray(0, charBoundary(bytes));
      const text = this.codec.decode(cut);
      if (text !== undefined) return text;
      if (!this.fallback) return this.decode(cut);
      this.codec = this.fallback;
    }
    // A legacy character is at most 4 bytes (GB18030): drop up to 3 until the rest decodes.
    for (let k = 0; k <= 3 && k < bytes.length; k++) {
      const text = this.codec.decode(bytes.subarray(0, bytes.length - k));
      if (text !== undefined) return text;
    }
    return this.decode(bytes);
  }

  /**
   * UTF-8 and nothing else to try: a reader decodes with `decodeText` itself (a call per line less: 6 % of
   * the CPU of a 1,000-line tail here).
   */
  get plain(): boolean {
    return this.codec.name === "utf-8" && this.fallback === undefined;
  }

  /** The encoding as reported: "utf-8", "utf-16le with BOM", "shift_jis". */
  get label(): string {
    return encodingLabel(this.codec);
  }
}

export const encodingLabel = (c: Codec): string => (c.bom > 0 ? `${c.name} with BOM` : c.name);

export function invalidBytesError(requested: string, name: string): ToolError {
  return new ToolError("not_utf8", { reason: "invalid_bytes", path: requested, name });
}

/** The decode policy for a file whose first bytes are `head` (4 are enough), given the caller's `named`. */
export async function decodingFor(head: Uint8Array, requested: string, named?: string): Promise<Decoding> {
  const bom = bomOf(head);
  if (bom) return new Decoding(requested, await namedCodec(bom.name, requested, bom.length));
  if (named === undefined) return new Decoding(requested, UTF8);
  const codec = await namedCodec(named, requested);
  // UTF-16/32 text without a BOM (ASCII in it) is often valid UTF-8 too: the named encoding wins there.
  return codec.bytewise ? new Decoding(requested, UTF8, codec) : new Decoding(requested, codec);
}

/** A file's text (a BOM kept as U+FEFF) and its codec, by the policy above; throws `notUtf8Error`. */
export async function decodeFile(
  data: Uint8Array,
  requested: string,
  named?: string,
): Promise<{ text: string; codec: Codec }> {
  const decoding = await decodingFor(data.subarray(0, 4), requested, named);
  let text: string;
  try {
    text = decoding.decode(data);
  } catch (err) {
    throw await explained(err, data, requested);
  }
  return { text, codec: decoding.codec };
}

/**
 * `decodeFile` for a change: the file's bytes must come back unchanged from its text (a Shift-JIS file
 * can spell one character two ways), so that lines an edit leaves alone keep their bytes.
 */
export async function decodeForEdit(
  data: Uint8Array,
  requested: string,
  named?: string,
): Promise<{ text: string; codec: Codec }> {
  const r = await decodeFile(data, requested, named);
  if (r.codec.name !== "utf-8" && !r.codec.encode(r.text)?.equals(asBuffer(data)))
    throw new ToolError("invalid", {
      reason: "encoding_roundtrip",
      path: requested,
      parameter: "encoding",
      name: r.codec.name,
    });
  return r;
}

/**
 * The codec of a file that text is added to (append): found without decoding a UTF-8 file; a file in
 * another encoding is decoded (and checked to round-trip) as an edit's would be.
 */
export async function codecOf(data: Uint8Array, requested: string, named?: string): Promise<Codec> {
  const bom = bomOf(data.subarray(0, 4));
  if (bom?.name === "utf-8") return utf8Codec(bom.length);
  if (!bom && isUtf8(asBuffer(data))) return UTF8;
  return (await decodeForEdit(data, requested, named)).codec;
}

/** `text` in `codec`'s encoding; a character it cannot hold is refused, naming the path and the character. */
export function encodeText(text: string, codec: Codec, requested: string): Buffer {
  const out = codec.encode(text);
  if (out !== undefined) return out;
  for (const ch of text)
    if (codec.encode(ch) === undefined) {
      const u = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      throw new ToolError("invalid", {
        reason: "unencodable_char",
        path: requested,
        name: codec.name,
        actual: ch,
        expected: u,
      });
    }
  return codec.encode(text)!;
}

/**
 * `text` for a write over the file `data`: in that file's encoding when it is UTF-16/32 (its BOM) or the
 * named encoding of a file that is not UTF-8; UTF-8 otherwise.
 */
export async function encodeLike(
  data: Uint8Array,
  text: string,
  requested: string,
  named?: string,
): Promise<Buffer> {
  const bom = bomOf(data.subarray(0, 4));
  // UTF-8 stays what the caller wrote (a UTF-8 BOM in the text or not), as a write always did.
  if (bom?.name === "utf-8" || (!bom && (named === undefined || isUtf8(asBuffer(data)))))
    return Buffer.from(text, "utf8");
  const { codec } = await decodeFile(data, requested, named);
  // A rewrite keeps the file's BOM: the new text gets it unless it brings its own.
  const withBom = codec.bom > 0 && !text.startsWith("\uFEFF") ? `\uFEFF${text}` : text;
  return encodeText(withBom, codec, requested);
}

/** A `not_utf8` refusal made full: the likely encodings of `sample` (chardet's guess) and how to pass one. */
export async function explained(err: unknown, sample: Uint8Array, requested: string): Promise<unknown> {
  if (!(err instanceof ToolError) || err.detail.reason !== "encoding_needed") return err;
  return notUtf8Error(requested, sample);
}

/** The refusal of a file that is not UTF-8, with chardet's guess of its encoding from `sample`. */
async function notUtf8Error(requested: string, sample: Uint8Array): Promise<ToolError> {
  const guesses = await guessEncodings(sample);
  if (guesses.length > 0)
    return new ToolError("not_utf8", { reason: "encoding_guessed", path: requested, items: guesses });
  const reason = looksBinary(sample) ? "looks_binary" : "encoding_unguessed";
  return new ToolError("not_utf8", { reason, path: requested });
}

/** The first bytes of a file that its encoding is judged by (chardet's guess, `get_file_info`'s report). */
export const SAMPLE_BYTES = 64 * 1024;

/** NUL bytes without a UTF-16/32 BOM: no text encoding mcpfs reads has them. */
const looksBinary = (sample: Uint8Array): boolean => {
  const head = sample.subarray(0, SAMPLE_BYTES);
  return !bomOf(head) && head.includes(0);
};

/** Up to three encodings chardet finds likely for `sample` (its first 64 KiB); none for binary bytes. */
export async function guessEncodings(sample: Uint8Array): Promise<string[]> {
  const head = sample.subarray(0, SAMPLE_BYTES);
  if (looksBinary(head)) return [];
  const { analyse } = await loadLibs();
  const names = analyse(head)
    .filter((m) => m.confidence >= 10 && m.name !== "ASCII" && m.name !== "UTF-8")
    .map((m) => m.name.toLowerCase());
  return [...new Set(names)].slice(0, 3);
}
