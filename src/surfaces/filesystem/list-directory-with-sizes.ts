import { z } from "zod";
import { escapeName } from "../../core/paths.js";
import { defineTool, textReply } from "../tool.js";
import { entryRecord, entrySchema, formatSize, listEntries, truncationNote } from "./common.js";

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
    const entries = await listEntries(ctx, args.path, true);
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
    // The totals always close the reply; the entries get the room left.
    ctx.budget.take(summary.join("\n"));
    const { kept, note } = ctx.budget.fitLines(lines, (n) =>
      truncationNote(
        `showing ${n} of ${lines.length} entries (the totals below count all)`,
        "Use search_files with a pattern to find specific entries.",
      ),
    );
    const shown = lines.slice(0, kept);
    if (note !== undefined) shown.push(note.slice(1));
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
