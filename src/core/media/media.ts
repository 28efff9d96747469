import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { openVerified } from "../fs/safe-open.js";
import { imageFormat } from "../images/header.js";
import type { ResolvedPath } from "../workspace.js";
import { mimeByExtension } from "./mime-types.js";

const ascii = (buf: Buffer, start: number, end: number) => buf.toString("latin1", start, end);

/** The MIME type the leading bytes announce, or undefined when they are not a known signature. */
export function sniffMime(head: Buffer): string | undefined {
  const b = head;
  const at = (i: number, ...bytes: number[]) => bytes.every((v, k) => b[i + k] === v);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a") return "image/gif";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return "image/webp";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WAVE") return "audio/wav";
  if (ascii(b, 0, 2) === "BM" && b.length >= 14) return "image/bmp";
  if (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a)) return "image/tiff";
  if (at(0, 0x00, 0x00, 0x01, 0x00) && b.length >= 6 && b[4]! + b[5]! > 0) return "image/x-icon";
  if (ascii(b, 0, 5) === "%PDF-") return "application/pdf";
  if (ascii(b, 0, 4) === "OggS") return "audio/ogg";
  if (ascii(b, 0, 4) === "fLaC") return "audio/flac";
  if (ascii(b, 0, 3) === "ID3" || (b[0] === 0xff && b.length > 1 && (b[1]! & 0xe6) === 0xe2))
    return "audio/mpeg";
  if (ascii(b, 4, 8) === "ftyp") {
    const brand = ascii(b, 8, 12);
    if (brand === "avif" || brand === "avis") return "image/avif";
    if (["heic", "heix", "heim", "heis", "mif1"].includes(brand)) return "image/heic";
    if (brand === "M4A " || brand === "M4B ") return "audio/mp4";
    return "video/mp4";
  }
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return "video/webm";
  const text = ascii(b, 0, Math.min(b.length, 512))
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart();
  if (/^<svg[\s>]/i.test(text) || (/^<\?xml/i.test(text) && /<svg[\s>]/i.test(text))) return "image/svg+xml";
  return undefined;
}

/** Media types only: a text or archive extension leaves a media reply to the bytes or the default. */
const MEDIA = /^(image|audio|video)\/|^application\/pdf$/;

export function mimeFromExtension(file: string): string | undefined {
  const type = mimeByExtension(file);
  return type !== undefined && MEDIA.test(type) ? type : undefined;
}

export interface MediaRead {
  mimeType: string;
  /** How the type was decided. */
  source: "content" | "extension" | "default";
  data: Buffer;
  size: number;
  /** Last modification time of the file read (ISO 8601). */
  mtime: string;
}

/**
 * Reads a whole file for a media reply, refusing files over `maxBytes` (checked on the open descriptor,
 * before anything is loaded) — or over `imageMaxBytes` for an image mcpfs can scale down (PNG, JPEG, GIF,
 * WebP, known by its first bytes). The type comes from the bytes first, then the extension.
 */
export async function readMedia(
  target: ResolvedPath,
  maxBytes: number,
  imageMaxBytes = maxBytes,
): Promise<MediaRead> {
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new ToolError("not_file", { path: target.requested });
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    const scalable = async () => {
      const head = Buffer.alloc(16);
      const { bytesRead } = await fh.read(head, 0, 16, 0);
      return imageFormat(head.subarray(0, bytesRead)) !== undefined;
    };
    if (st.size > maxBytes && (st.size > imageMaxBytes || !(await scalable())))
      throw new ToolError("too_large", {
        reason: "media",
        path: target.requested,
        actual: st.size,
        limit: maxBytes,
      });
    const data = await fh.readFile();
    const sniffed = sniffMime(data.subarray(0, 1024));
    const byExt = mimeFromExtension(target.real);
    const mimeType = sniffed ?? byExt ?? "application/octet-stream";
    return {
      mimeType,
      source: sniffed ? "content" : byExt ? "extension" : "default",
      data,
      size: st.size,
      mtime: new Date(st.mtimeMs).toISOString(),
    };
  } finally {
    await fh.close();
  }
}
