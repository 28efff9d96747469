import { z } from "zod";
import { fileInfo, symbolicMode } from "../../core/listing/info.js";
import { defineTool, textReply } from "../tool.js";

export const getFileInfoTool = defineTool({
  name: "get_file_info",
  title: "Get File Info",
  description: "Metadata of a file or directory: size, times, permissions, type.",
  input: z.object({ path: z.string() }),
  output: z.object({
    content: z.string(),
    size: z.number().optional(),
    created: z.string().optional().describe("ISO 8601"),
    modified: z.string().optional().describe("ISO 8601"),
    accessed: z.string().optional().describe("ISO 8601"),
    isDirectory: z.boolean().optional(),
    isFile: z.boolean().optional(),
    type: z.enum(["file", "directory", "other"]).optional(),
    permissions: z.string().optional().describe("last three octal digits, e.g. 755"),
    mode: z.string().optional().describe("full permission bits in octal, e.g. 4755"),
    symbolic: z.string().optional().describe("e.g. rwsr-xr-x"),
    encoding: z.string().optional().describe("text files only"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "read" });
    const i = await fileInfo(target, { encoding: true });
    const { encoding } = i;
    const permissions = (i.mode & 0o777).toString(8).padStart(3, "0");
    const mode = i.mode.toString(8).padStart(4, "0");
    const symbolic = symbolicMode(i.mode);
    const lines = [
      `size: ${i.size}`,
      `created: ${i.created.toString()}`,
      `modified: ${i.modified.toString()}`,
      `accessed: ${i.accessed.toString()}`,
      `isDirectory: ${i.isDirectory}`,
      `isFile: ${i.isFile}`,
      `permissions: ${permissions}`,
    ];
    // Each fact once: the official lines, then only what they cannot say (ISO times are in the structured
    // reply): setuid/setgid/sticky bits, and a type that is neither file nor directory.
    if (i.mode & 0o7000) lines.push(`mode: ${mode} (${symbolic})`);
    if (i.type === "other") lines.push("type: other");
    if (encoding !== undefined && encoding !== "utf-8") lines.push(`encoding: ${encoding}`);
    return textReply(lines.join("\n"), {
      size: i.size,
      created: i.created.toISOString(),
      modified: i.modified.toISOString(),
      accessed: i.accessed.toISOString(),
      isDirectory: i.isDirectory,
      isFile: i.isFile,
      type: i.type,
      permissions,
      mode,
      symbolic,
      ...(encoding !== undefined ? { encoding } : {}),
    });
  },
});
