/** mcpfs's additions to the filesystem surface: file operations the official server lacks. */
import { z } from "zod";
import { cutToLines } from "../../core/budget.js";
import { ToolError } from "../../core/errors.js";
import { appendToFile } from "../../core/files/append.js";
import { copyPath } from "../../core/files/copy.js";
import { deleteDirectory, deleteFile } from "../../core/files/remove.js";
import { defineTool, recordChanges, type ToolContext, textReply } from "../tool.js";
import { resolveEntry } from "./entry.js";

export const expectedSha256 = z
  .string()
  .optional()
  .describe("sha256 your read returned; refused if the file changed since");

const LIST_CAP = 20;

/** A reply cut to the output budget on a line boundary. */
export function budgeted(ctx: ToolContext, text: string): { text: string; truncated: boolean } {
  const cut = cutToLines(text, Math.max(0, ctx.config.maxOutputBytes - 200));
  return cut.truncated
    ? {
        text: `${cut.text}\n[mcpfs: output truncated at ${ctx.config.maxOutputBytes} bytes]`,
        truncated: true,
      }
    : cut;
}

export const appendFileTool = defineTool({
  name: "append_file",
  title: "Append File",
  description:
    "Append text verbatim to the end of a file, creating it unless mustExist (crash-safe; in a CRLF file new line breaks become CRLF).",
  input: z.object({
    path: z.string(),
    content: z.string(),
    mustExist: z.boolean().optional().describe("Refuse if the file does not exist"),
    expectedSha256,
  }),
  output: z.object({ content: z.string(), sha256: z.string().optional(), bytes: z.number().optional() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const target = await ctx.ws.resolve(args.path, { intent: "write" });
    const r = await appendToFile(target, args.content, {
      mustExist: args.mustExist,
      expectedSha256: args.expectedSha256,
    });
    recordChanges(ctx, [r]);
    const verb = r.kind === "create" ? "created" : "appended to";
    return textReply(`Successfully ${verb} ${args.path}`, { sha256: r.after, bytes: r.bytes });
  },
});

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
    const dest = await resolveEntry(ctx, args.destination);
    const r = await copyPath(source, dest, {
      overwrite: args.overwrite,
      contains: (real) => ctx.ws.contains(real),
      gitDirWrites: ctx.ws.access.gitDirWrites,
      signal: ctx.signal,
    });
    recordChanges(ctx, r.written, args.source);
    const what =
      r.dirs === 0
        ? `${r.bytes} bytes`
        : `${r.files} files, ${r.dirs} directories, ${r.links} links, ${r.bytes} bytes`;
    return textReply(`Successfully copied ${args.source} to ${args.destination} (${what})`, {
      files: r.files,
      directories: r.dirs,
      links: r.links,
      bytes: r.bytes,
    });
  },
});

export const deleteFileTool = defineTool({
  name: "delete_file",
  title: "Delete File",
  description: "Delete a file (a symlink itself, never its target). Directories: delete_directory.",
  input: z.object({ path: z.string(), expectedSha256 }),
  output: z.object({ content: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const entry = await resolveEntry(ctx, args.path);
    const r = await deleteFile(entry, { expectedSha256: args.expectedSha256 });
    recordChanges(ctx, [r]);
    return textReply(`Successfully deleted ${args.path}`);
  },
});

export const deleteDirectoryTool = defineTool({
  name: "delete_directory",
  title: "Delete Directory",
  description:
    "Delete an empty directory, or with recursive everything in it (links removed, not followed); never an allowed directory itself. Reports what it removed.",
  input: z.object({
    path: z.string(),
    recursive: z.boolean().optional().describe("Also delete everything in it"),
  }),
  output: z.object({
    content: z.string(),
    files: z.number().optional(),
    directories: z.number().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const entry = await resolveEntry(ctx, args.path);
    if (entry.relative === "")
      throw new ToolError(`Refusing to delete an allowed directory: ${args.path}`, "denied");
    let removed: Awaited<ReturnType<typeof deleteDirectory>>;
    try {
      removed = await deleteDirectory(entry, args.recursive === true, ctx.signal);
    } catch (err) {
      if (err instanceof ToolError && err.code === "conflict")
        throw new ToolError(
          `Directory not empty: ${args.path}. Pass recursive: true to delete it with everything in it.`,
          "conflict",
        );
      throw err;
    }
    const dirs = removed.filter((e) => e.isDir).length;
    const files = removed.length - dirs;
    const base = entry.relative;
    ctx.recordMutation({ op: "delete", path: args.path, bytes: 0 });
    const shown = removed.slice(0, LIST_CAP).map((e) => {
      const rel = e.rel === base ? "" : e.rel.slice(base.length + 1);
      return `${e.isDir ? "[DIR] " : "[FILE] "}${rel === "" ? args.path : rel}`;
    });
    if (removed.length > LIST_CAP) shown.push(`... and ${removed.length - LIST_CAP} more`);
    return textReply(
      `Successfully deleted ${args.path} (${files} files, ${dirs} directories):\n${shown.join("\n")}`,
      { files, directories: dirs },
    );
  },
});
