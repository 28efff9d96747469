import { createHash } from "node:crypto";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { imageFields, imageParams, readMediaReply } from "../image-tool.js";
import { defineTool } from "../tool.js";
import { gitignoreGate, requireFilePath, resolveIn } from "./common.js";

/** mcpfs: mcp-workspace has no image read; this is the filesystem surface's read_media_file for images. */
export const readImageTool = defineTool({
  name: "read_image",
  title: "Read Image",
  description:
    "Show an image (PNG, JPEG, GIF, WebP, …) to the model, scaled to fit (1568 px, the reply's size).",
  input: z.object({ file_path: z.string().describe("Project-relative path"), ...imageParams }),
  output: z.object({
    result: z.string(),
    mimeType: z.string(),
    size: z.number().describe("of the file, bytes"),
    sha256: z.string(),
    mtime: z.string(),
    ...imageFields,
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(a, ctx) {
    const target = await resolveIn(ctx, requireFilePath(a.file_path), "read");
    await gitignoreGate(ctx, target, a.file_path);
    const m = await readMediaReply(ctx, target, a);
    if (!m.mimeType.startsWith("image/"))
      throw new ToolError("invalid", { reason: "not_image", path: a.file_path, actual: m.mimeType });
    const size = m.width ? `${m.width}x${m.height} px, ` : "";
    const result = m.note ?? `Image ${size}${m.size} bytes ${m.mimeType}, the file's own bytes.`;
    const data = Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength).toString("base64");
    return {
      content: [
        { type: "image", data, mimeType: m.mimeType },
        { type: "text", text: result },
      ],
      structuredContent: {
        result,
        mimeType: m.mimeType,
        size: m.size,
        sha256: createHash("sha256").update(m.fileData).digest("hex"),
        mtime: m.mtime,
        ...(m.width ? { width: m.width, height: m.height } : {}),
        ...(m.resized ? { resized: m.resized } : {}),
      },
    };
  },
});
