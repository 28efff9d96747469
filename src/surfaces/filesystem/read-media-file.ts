import { createHash } from "node:crypto";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { imageFields, imageParams, readMediaReply } from "../image-tool.js";
import { type ContentBlock, defineTool } from "../tool.js";

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
  ...imageFields,
});

export const readMediaFileTool = defineTool({
  name: "read_media_file",
  title: "Read Media File",
  description:
    "Read an image, audio or other binary file as base64 with its MIME type (recognised from its bytes). Images are scaled to fit (1568 px, the reply's size); other files too large for one reply are refused.",
  input: z.object({ path: z.string(), ...imageParams }),
  output,
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "read" });
    const m = await readMediaReply(ctx, target, args);
    const data = Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength).toString("base64");
    const block: ContentBlock = m.mimeType.startsWith("image/")
      ? { type: "image", data, mimeType: m.mimeType }
      : m.mimeType.startsWith("audio/")
        ? { type: "audio", data, mimeType: m.mimeType }
        : {
            type: "resource",
            resource: { uri: pathToFileURL(target.real).href, mimeType: m.mimeType, blob: data },
          };
    // The note on a scaled image is for the model; structuredContent keeps the official shape (the media).
    return {
      content: m.note ? [block, { type: "text", text: m.note }] : [block],
      structuredContent: {
        content: [block],
        mimeType: m.mimeType,
        detectedBy: m.detectedBy,
        size: m.size,
        sha256: createHash("sha256").update(m.fileData).digest("hex"),
        mtime: m.mtime,
        ...(m.width ? { width: m.width, height: m.height } : {}),
        ...(m.resized ? { resized: m.resized } : {}),
      },
    };
  },
});
