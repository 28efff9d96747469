import { z } from "zod";
import { copyPath } from "../../core/mutate/copy.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, recordChanges, textReply } from "../tool.js";
import { resolveEntry } from "./common.js";

export const copyFileTool = defineTool({
  name: "copy_file",
  title: "Copy File",
  description:
    "Copy a file or directory tree, keeping modes; symlinks are copied as links, and only while they still point inside the allowed directories. Refuses an existing destination unless overwrite.",
  input: z.object({
    source: z.string(),
    destination: z.string(),
    overwrite: z
      .boolean()
      .optional()
      .describe("Replace an existing file, or copy into an existing directory"),
  }),
  output: z.object({
    content: z.string(),
    files: z.number().optional(),
    directories: z.number().optional(),
    links: z.number().optional(),
    bytes: z.number().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const source = await ctx.ws.resolve(args.source, { intent: "read" });
    await ctx.ws.gateCopied(source);
    const dest = await resolveEntry(ctx, args.destination);
    const r = await copyPath(source, dest, {
      overwrite: args.overwrite,
      contains: (real) => ctx.ws.contains(real),
      gitDirWrites: ctx.ws.rules.gitDirWrites,
      signal: ctx.signal,
    });
    recordChanges(ctx, r.written, args.source);
    const what =
      r.dirs === 0
        ? `${r.bytes} bytes`
        : `${r.files} files, ${r.dirs} directories, ${r.links} links, ${r.bytes} bytes`;
    return textReply(
      `Successfully copied ${escapeName(args.source)} to ${escapeName(args.destination)} (${what})`,
      {
        files: r.files,
        directories: r.dirs,
        links: r.links,
        bytes: r.bytes,
      },
    );
  },
});
