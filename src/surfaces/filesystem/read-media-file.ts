import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { readMedia } from "../../core/files/media.js";
import { type ContentBlock, defineTool } from "../tool.js";

/** Media replies carry base64 twice (content + structuredContent); this floor keeps them under ~8 MiB. */
export const MEDIA_FLOOR_BYTES = 3 * 1024 * 1024;

const output = z.object({
  content: z.array(
    z.union([
      z.object({ type: z.enum(["image", "audio"]), data: z.string(), mimeType: z.string() }),
      z.object({
        type: z.literal("resource"),
        resource: z.object({ uri: z.string(), mimeType: z.string().optional(), blob: z.string() }),
      }),
    ]),
  ),
  // mcpfs additions (the official reply has only `content`); declared so SDK clients validate them.
  mimeType: z.string().optional().describe("the MIME type sent (also in the content block)"),
  detectedBy: z
    .enum(["content", "extension", "default"])
    .optional()
    .describe(
      "how the MIME type was decided: content (the file's first bytes), extension (the file name), " +
        "default (neither: application/octet-stream)",
    ),
  size: z.number().optional().describe("size of the file in bytes"),
  sha256: z.string().optional().describe("sha256 of the file's bytes"),
  mtime: z.string().optional().describe("last modification time of the file read, ISO 8601"),
});

export const readMediaFileTool = defineTool({
  name: "read_media_file",
  title: "Read Media File",
  description:
    "Read an image, audio or other binary file as base64 with its MIME type (recognised from its bytes). Files too large for one reply are refused.",
  input: z.object({ path: z.string() }),
  output,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "read" });
    // base64 grows 4/3; the limit applies to the encoded text.
    const limit = Math.floor((Math.max(ctx.budget.limit, MEDIA_FLOOR_BYTES) * 3) / 4);
    const m = await readMedia(target, limit);
    const data = m.data.toString("base64");
    const block: ContentBlock = m.mimeType.startsWith("image/")
      ? { type: "image", data, mimeType: m.mimeType }
      : m.mimeType.startsWith("audio/")
        ? { type: "audio", data, mimeType: m.mimeType }
        : {
            type: "resource",
            resource: { uri: pathToFileURL(target.real).href, mimeType: m.mimeType, blob: data },
          };
    return {
      content: [block],
      structuredContent: {
        content: [block],
        mimeType: m.mimeType,
        detectedBy: m.source,
        size: m.size,
        sha256: createHash("sha256").update(m.data).digest("hex"),
        mtime: m.mtime,
      },
    };
  },
});
