import { z } from "zod";
import { defineTool, textReply } from "../tool.js";

export const listAllowedDirectoriesTool = defineTool({
  name: "list_allowed_directories",
  title: "List Allowed Directories",
  description: "List the directories this server may access; everything below them is accessible too.",
  input: z.object({}),
  output: z.object({
    content: z.string(),
    directories: z
      .array(z.object({ path: z.string(), realPath: z.string(), readOnly: z.boolean() }))
      .optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(_args, ctx) {
    const lines: string[] = [];
    for (const r of ctx.ws.roots) {
      // Both the given and the real (symlink-resolved) form, as the official server lists them.
      lines.push(r.path + (r.mode === "ro" ? " (read-only)" : ""));
      if (r.real !== r.path) lines.push(r.real + (r.mode === "ro" ? " (read-only)" : ""));
    }
    const directories = ctx.ws.roots.map((r) => ({
      path: r.path,
      realPath: r.real,
      readOnly: r.mode === "ro",
    }));
    return textReply(`Allowed directories:\n${lines.join("\n")}`, { directories });
  },
});
