import { z } from "zod";
import type { ListedEntry } from "../../core/listing/listing.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, textReply } from "../tool.js";
import { entryRecord, entrySchema, listEntries, truncationNote } from "./common.js";

function prefix(e: ListedEntry): string {
  return e.type === "dir"
    ? "[DIR]"
    : e.type === "symlink"
      ? "[LINK]"
      : e.type === "other"
        ? "[OTHER]"
        : "[FILE]";
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
    const entries = await listEntries(ctx, args.path, false);
    const lines = entries.map((e) => {
      const base = `${prefix(e)} ${escapeName(e.name)}`;
      return e.link ? `${base} -> ${escapeName(e.link.target)}` : base;
    });
    const { kept, note } = ctx.budget.fitLines(lines, (n) =>
      truncationNote(
        `showing ${n} of ${lines.length} entries`,
        "Use search_files with a pattern to find specific entries.",
      ),
    );
    const text = lines.slice(0, kept).join("\n") + (note ?? "");
    return textReply(text, {
      entries: entries.slice(0, kept).map(entryRecord),
      total: entries.length,
      truncated: kept < lines.length,
    });
  },
});
