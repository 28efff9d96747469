/**
 * In the document worker: an image decoded, scaled down to fit the long side asked for, and re-encoded;
 * while the result is over the byte limit, a lossy format first lowers its quality, then the image is
 * scaled down further in proportion to the excess.
 */
import { ToolError } from "../errors.js";
import { decodeImage, encodeImage, OUTPUT_FORMAT } from "./codecs.js";
import type { ImageFormat } from "./header.js";
import { downscale, type Rgba } from "./resize.js";

export interface ImageRequest {
  id: number;
  kind: "image";
  data: Uint8Array;
  format: ImageFormat;
  /** Longest side of the result, in pixels. */
  maxDimension: number;
  /** Most bytes of the encoded result. */
  maxBytes: number;
  /** Most pixels decoded (the header was judged by the main thread; checked again for a GIF's frame). */
  maxPixels: number;
}

export interface ImageResult {
  kind: "image";
  data: Uint8Array;
  format: "png" | "jpeg" | "webp";
  width: number;
  height: number;
  /** The decoded image's size (a JPEG's orientation applied). */
  sourceWidth: number;
  sourceHeight: number;
}

/** Qualities a lossy format tries, best first, before the image is made smaller. */
const QUALITIES = [85, 70, 55];
/** Below this long side, giving up beats sending a thumbnail nobody asked for. */
const MIN_SIDE = 32;

const sizeAt = (src: Rgba, scale: number): [number, number] => [
  Math.max(1, Math.round(src.width * scale)),
  Math.max(1, Math.round(src.height * scale)),
];

export async function shrinkImage(req: ImageRequest): Promise<ImageResult> {
  const src = await decodeImage(req.format, req.data, req.maxPixels);
  const format = OUTPUT_FORMAT[req.format];
  let scale = Math.min(1, req.maxDimension / Math.max(src.width, src.height));
  // Later, smaller tries scale from the first one: a fraction of the source's pixels to average.
  let base: Rgba = src;
  let q = 0;
  for (;;) {
    const [w, h] = sizeAt(src, scale);
    const img = w === base.width && h === base.height ? base : downscale(base, w, h);
    if (base === src) base = img;
    const out = await encodeImage(format, img, QUALITIES[q]!);
    const result = {
      kind: "image",
      format,
      width: w,
      height: h,
      sourceWidth: src.width,
      sourceHeight: src.height,
    };
    if (out.length <= req.maxBytes) return { ...result, data: out } as ImageResult;
    if (format !== "png" && q < QUALITIES.length - 1) {
      q++;
      continue;
    }
    // Bytes grow about with the pixel count: shrink by the square root of the excess, with some margin.
    scale *= Math.min(0.9, Math.sqrt(req.maxBytes / out.length) * 0.95);
    if (Math.max(...sizeAt(src, scale)) < MIN_SIDE)
      throw new ToolError("too_large", { reason: "image_fit", limit: req.maxBytes, actual: MIN_SIDE });
  }
}
