/**
 * An image made to fit a model's limits: the header is judged first (a size over `maxPixels` is refused
 * before any decoder runs, so a 30,000 × 30,000 "bomb" costs a few bytes read); an image already within
 * the limits comes back byte for byte; a larger one is scaled down and re-encoded off the main thread
 * (the document worker, with its memory and time bounds).
 */

import { shrinkInWorker } from "../documents/pool.js";
import { ToolError } from "../errors.js";
import { type ImageFormat, imageHeader, MIME_OF } from "./header.js";

export const IMAGE_LIMITS = {
  /** Longest side by default: what Claude's vision models take without scaling (larger is scaled there). */
  maxDimension: 1568,
  /** The model API's limit on one image, 5 MiB of base64, as bytes before base64. */
  apiBytes: (5 * 1024 * 1024 * 3) / 4,
  /** Pixels decoded at most (8,000 × 6,250; a 48 MP photo fits): 200 MB of RGBA, ~3× that at the peak. */
  maxPixels: 50_000_000,
  /** Files read at most to be scaled down. */
  maxFileBytes: 64 * 1024 * 1024,
  /** Time per image; the worker is ended past it. */
  timeoutMs: 30_000,
};

export interface FitAsk {
  /** Longest side wanted, in pixels. */
  maxDimension: number;
  /** Most bytes of the image returned. */
  maxBytes: number;
}

export interface Fitted {
  data: Uint8Array;
  /** The MIME type of `data`. */
  mimeType: string;
  /** The file's format (from its header). */
  format?: ImageFormat;
  /** The file's size as its header states it (undefined: a format mcpfs does not decode, or no header). */
  width?: number;
  height?: number;
  /** Set when the image returned is not the file's bytes: what was returned instead. */
  resized?: { width: number; height: number; bytes: number; mimeType: string };
}

/**
 * `bytes` (a file's whole content, read through the gate) fitted to `ask`. Throws a `too_large` ToolError
 * naming `requested` for a header over the pixel cap, an `invalid` one for an image that does not decode.
 */
export async function fitImage(
  bytes: Uint8Array,
  mimeType: string,
  requested: string,
  ask: FitAsk,
  signal?: AbortSignal,
): Promise<Fitted> {
  const head = imageHeader(bytes);
  if (!head && bytes.length > ask.maxBytes)
    throw new ToolError("invalid", {
      reason: "image_header",
      path: requested,
      actual: bytes.length,
      limit: ask.maxBytes,
    });
  if (!head) return { data: bytes, mimeType };
  const { format, width, height } = head;
  const asIs: Fitted = { data: bytes, mimeType, format, width, height };
  if (Math.max(width, height) <= ask.maxDimension && bytes.length <= ask.maxBytes) return asIs;
  if (width * height > IMAGE_LIMITS.maxPixels)
    throw new ToolError("too_large", {
      reason: "image_pixels",
      path: requested,
      name: `${width} x ${height}`,
      actual: width * height,
      limit: IMAGE_LIMITS.maxPixels,
    });
  const r = await shrinkInWorker(
    { kind: "image", data: bytes, format, ...ask, maxPixels: IMAGE_LIMITS.maxPixels },
    requested,
    IMAGE_LIMITS.timeoutMs,
    signal,
  );
  const sent = MIME_OF[r.format as ImageFormat];
  return {
    ...asIs,
    data: r.data,
    mimeType: sent,
    resized: { width: r.width, height: r.height, bytes: r.data.length, mimeType: sent },
  };
}

/** The one line a reply says about a scaled image: sizes before and after. */
export function fitNote(f: Fitted, fileBytes: number): string | undefined {
  if (!f.resized) return undefined;
  const r = f.resized;
  const to = r.mimeType.replace("image/", "").toUpperCase();
  return (
    `Image scaled to fit: ${f.width}x${f.height} px, ${fileBytes} bytes ${f.format!.toUpperCase()} -> ` +
    `${r.width}x${r.height} px, ${r.bytes} bytes ${to} (original: true for the file's bytes).`
  );
}
