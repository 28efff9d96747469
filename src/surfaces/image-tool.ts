/**
 * Images for both surfaces (filesystem read_media_file, workspace read_image): the parameters, the byte
 * limit a media reply may carry, and the read that scales an image down to fit (core/images/).
 */
import { z } from "zod";
import { type Fitted, fitImage, fitNote, IMAGE_LIMITS } from "../core/images/fit.js";
import { readMedia } from "../core/media/media.js";
import type { ResolvedPath } from "../core/workspace.js";
import type { ToolContext } from "./tool.js";

/** Media replies carry base64 twice (content + structuredContent); this floor keeps them under ~8 MiB. */
export const MEDIA_FLOOR_BYTES = 3 * 1024 * 1024;

export const imageParams = {
  maxDimension: z.number().int().positive().optional().describe("Images: longest side, px (default 1568)"),
  maxBytes: z.number().int().positive().optional().describe("Images: most bytes (default: up to 5 MB)"),
  original: z.boolean().optional().describe("Images: the file's bytes, unscaled"),
};

export const imageFields = {
  width: z.number().optional(),
  height: z.number().optional(),
  resized: z
    .object({ width: z.number(), height: z.number(), bytes: z.number(), mimeType: z.string() })
    .optional()
    .describe("sent instead of the file, scaled to fit"),
};

export interface ImageArgs {
  maxDimension?: number;
  maxBytes?: number;
  original?: boolean;
}

export interface MediaReply extends Fitted {
  /** The file's size, sha256 source and time. */
  size: number;
  fileData: Buffer;
  mtime: string;
  detectedBy: "content" | "extension" | "default";
  /** One line on the sizes before and after, when the image was scaled. */
  note?: string;
}

/** The most bytes (before base64) one media reply may carry; base64 grows 4/3. */
export const mediaLimit = (ctx: ToolContext) =>
  Math.floor((Math.max(ctx.budget.limit, MEDIA_FLOOR_BYTES) * 3) / 4);

/**
 * A file read for a media reply: an image over the limits asked for (or the reply's) scaled down, anything
 * else (or `original: true`) as its bytes, refused when larger than one reply.
 */
export async function readMediaReply(
  ctx: ToolContext,
  target: ResolvedPath,
  a: ImageArgs,
): Promise<MediaReply> {
  const limit = mediaLimit(ctx);
  const m = await readMedia(target, limit, a.original ? limit : IMAGE_LIMITS.maxFileBytes);
  const base = { size: m.size, fileData: m.data, mtime: m.mtime, detectedBy: m.source };
  if (a.original || !m.mimeType.startsWith("image/")) return { ...base, data: m.data, mimeType: m.mimeType };
  const ask = {
    maxDimension: a.maxDimension ?? IMAGE_LIMITS.maxDimension,
    maxBytes: Math.min(a.maxBytes ?? IMAGE_LIMITS.apiBytes, limit),
  };
  const f = await fitImage(m.data, m.mimeType, target.requested, ask, ctx.signal);
  return { ...base, ...f, note: fitNote(f, m.size) };
}
