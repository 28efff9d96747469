import { z } from "zod";
import { byteLength } from "../../core/budget.js";
import { type ListedEntry, listDirectory } from "../../core/files/listing.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, type ToolContext, textReply } from "../tool.js";
import { formatSize, truncationNote } from "./format.js";

const entrySchema = z.object({
  name: z.string(),
  type: z.enum(["file", "dir", "symlink", "other"]),
  size: z.number().optional().describe("bytes (files only)"),
  mtime: z.string().optional().describe("ISO 8601"),
  linkTarget: z.string().optional().describe("symlink text, only when it points inside the allowed roots"),
  linkTargetType: z.enum(["file", "dir", "other", "missing"]).optional(),
});

function entryRecord(e: ListedEntry): z.infer<typeof entrySchema> {
  return {
    name: e.name,
    type: e.type,
    ...(e.size !== undefined && e.type === "file" ? { size: e.size } : {}),
    ...(e.mtimeMs !== undefined ? { mtime: new Date(e.mtimeMs).toISOString() } : {}),
    ...(e.link ? { linkTarget: e.link.target, linkTargetType: e.link.targetType } : {}),
  };
}

function prefix(e: ListedEntry): string {
  return e.type === "dir"
    ? "[DIR]"
    : e.type === "symlink"
      ? "[LINK]"
      : e.type === "other"
        ? "[OTHER]"
        : "[FILE]";
}

/** Adds lines while they fit; returns how many were kept. */
function fitLines(lines: string[], budget: number): number {
  let bytes = 0;
  for (let i = 0; i < lines.length; i++) {
    bytes += byteLength(lines[i]!) + 1;
    if (bytes > budget) return i;
  }
  return lines.length;
}

const NOTE_ROOM = 512;

async function list(ctx: ToolContext, path: string, stats: boolean) {
  const dir = await ctx.ws.resolve(path, { intent: "read" });
  return listDirectory(ctx.ws, dir, { stats });
}

export const listDirectoryTool = defineTool({
  name: "list_directory",
  title: "List Directory",
  description:
    "List a directory: one [FILE], [DIR] or [LINK] name -> target line per entry, sorted by name. Whole subtree: directory_tree; files by name: search_files.",
  input: z.object({ path: z.string() }),
  output: z.object({
    content: z.string(),
    entries: z.array(entrySchema).optional().describe("the entries shown, sorted by name"),
    total: z.number().optional().describe("number of entries in the directory"),
    truncated: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const entries = await list(ctx, args.path, false);
    const lines = entries.map((e) => {
      const base = `${prefix(e)} ${escapeName(e.name)}`;
      return e.link ? `${base} -> ${escapeName(e.link.target)}` : base;
    });
    const kept = fitLines(lines, ctx.config.maxOutputBytes - NOTE_ROOM);
    let text = lines.slice(0, kept).join("\n");
    if (kept < lines.length)
      text += truncationNote(
        `showing ${kept} of ${lines.length} entries`,
        "Use search_files with a pattern to find specific entries.",
      );
    return textReply(text, {
      entries: entries.slice(0, kept).map(entryRecord),
      total: entries.length,
      truncated: kept < lines.length,
    });
  },
});

export const listDirectoryWithSizesTool = defineTool({
  name: "list_directory_with_sizes",
  title: "List Directory with Sizes",
  description: "List a directory with file sizes and totals.",
  input: z.object({
    path: z.string(),
    sortBy: z.enum(["name", "size"]).optional().default("name"),
  }),
  output: z.object({
    content: z.string(),
    entries: z.array(entrySchema).optional().describe("the entries shown, in the order shown"),
    totalFiles: z.number().optional(),
    totalDirectories: z.number().optional(),
    totalLinks: z.number().optional(),
    combinedSize: z.number().optional().describe("sum of the files' sizes in bytes"),
    truncated: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  mutating: false,
  async handler(args, ctx) {
    const entries = await list(ctx, args.path, true);
    if (args.sortBy === "size") {
      // Largest files first; entries without a size (directories, links) after them, by name.
      entries.sort(
        (a, b) => (b.type === "file" ? (b.size ?? 0) : -1) - (a.type === "file" ? (a.size ?? 0) : -1),
      );
    }
    const lines = entries.map((e) => {
      const name = escapeName(e.name).padEnd(30);
      if (e.type === "dir") return `[DIR] ${name} `;
      if (e.type === "symlink")
        return e.link ? `[LINK] ${name} -> ${escapeName(e.link.target)}` : `[LINK] ${name}`;
      if (e.type === "other") return `[OTHER] ${name}`;
      return `[FILE] ${name} ${formatSize(e.size ?? 0).padStart(10)}`;
    });
    const files = entries.filter((e) => e.type === "file");
    const dirs = entries.filter((e) => e.type === "dir").length;
    const links = entries.filter((e) => e.type === "symlink").length;
    const combined = files.reduce((s, e) => s + (e.size ?? 0), 0);
    const summary = [
      "",
      `Total: ${files.length} files, ${dirs} directories${links ? `, ${links} links` : ""}`,
      `Combined size: ${formatSize(combined)}`,
    ];
    const kept = fitLines(lines, ctx.config.maxOutputBytes - NOTE_ROOM);
    const shown = lines.slice(0, kept);
    if (kept < lines.length)
      shown.push(
        truncationNote(
          `showing ${kept} of ${lines.length} entries (the totals below count all)`,
          "Use search_files with a pattern to find specific entries.",
        ).slice(1),
      );
    return textReply([...shown, ...summary].join("\n"), {
      entries: entries.slice(0, kept).map(entryRecord),
      totalFiles: files.length,
      totalDirectories: dirs,
      totalLinks: links,
      combinedSize: combined,
      truncated: kept < lines.length,
    });
  },
});
