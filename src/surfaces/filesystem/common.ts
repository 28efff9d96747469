/** What the filesystem surface's tools share: the official server's text layouts, schemas, entry paths. */
import path from "node:path";
import { z } from "zod";
import { type ListedEntry, listDirectory } from "../../core/listing/listing.js";
import { screenRequestedPath } from "../../core/paths.js";
import type { ResolvedPath } from "../../core/workspace.js";
import type { ToolContext } from "../tool.js";

/** 1024-based units labelled B/KB/MB/GB/TB: `512 B`, `1.50 KB`, capped at TB; 0 and negatives are `0 B`. */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (!(bytes > 0)) return "0 B";
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  if (i <= 0) return `${bytes} B`;
  return `${(bytes / 1024 ** i).toFixed(2)} ${units[i]}`;
}

/** The marker appended to a reply cut to the output budget. */
export function truncationNote(what: string, howToContinue: string): string {
  return `\n[mcpfs: output truncated: ${what}. ${howToContinue}]`;
}

/** The optional parameter of grep, search_files and directory_tree that lifts the ignore rules for one call. */
export const includeIgnoredParam = z.boolean().optional().describe("Include gitignored paths");

/** What a reply that left ignored entries out says, and how to include them ("" when it left none out). */
export function ignoredNote(count: number): string {
  if (count === 0) return "";
  const what = count === 1 ? "entry" : "entries";
  return `[mcpfs: ${count} ignored ${what} skipped (.gitignore rules); includeIgnored=true includes them.]`;
}

/** A walk that runs this long stops and reports what it found (a hung network volume never hangs a call). */
export const WALK_TIME_LIMIT_MS = 60_000;

export const expectedSha256 = z
  .string()
  .optional()
  .describe("sha256 your read returned; refused if the file changed since");

/** A reply held to the reply budget, cut on a line boundary with a note when it does not fit. */
export function budgeted(ctx: ToolContext, text: string): { text: string; truncated: boolean } {
  return ctx.budget.fit(text, `\n[mcpfs: output truncated at ${ctx.budget.limit} bytes]`, true);
}

export const entrySchema = z.object({
  name: z.string(),
  type: z.enum(["file", "dir", "symlink", "other"]),
  size: z.number().optional().describe("bytes (files only)"),
  mtime: z.string().optional().describe("ISO 8601"),
  linkTarget: z.string().optional().describe("symlink text, only when it points inside the allowed roots"),
  linkTargetType: z.enum(["file", "dir", "other", "missing"]).optional(),
});

export function entryRecord(e: ListedEntry): z.infer<typeof entrySchema> {
  return {
    name: e.name,
    type: e.type,
    ...(e.size !== undefined && e.type === "file" ? { size: e.size } : {}),
    ...(e.mtimeMs !== undefined ? { mtime: new Date(e.mtimeMs).toISOString() } : {}),
    ...(e.link ? { linkTarget: e.link.target, linkTargetType: e.link.targetType } : {}),
  };
}

/** The entries of a directory the client named. */
export async function listEntries(ctx: ToolContext, path: string, stats: boolean) {
  const dir = await ctx.ws.resolve(path, { intent: "read" });
  return listDirectory(ctx.ws, dir, { stats });
}

/**
 * Resolves a path that names a directory entry itself (delete, copy destination): a symlink is the link,
 * never its target. The whole path is resolved first, so everything `resolve` refuses (a link leading
 * outside, a read-only place, hostile spellings) is refused here too; then the parent is resolved and the
 * last component joined on.
 */
export async function resolveEntry(ctx: ToolContext, requested: string): Promise<ResolvedPath> {
  const full = await ctx.ws.resolve(requested, { intent: "write" });
  if (full.relative === "") return full;
  const screened = screenRequestedPath(requested);
  const trimmed = screened.length > 1 ? screened.replace(/\/+$/, "") : screened;
  const name = path.basename(trimmed);
  if (name === "" || name === "." || name === ".." || path.dirname(trimmed) === trimmed) return full;
  // The entry under the name the volume stores (another Unicode form, case or an 8.3 alias of it), the
  // write rules judged on it: the path gate's own entry resolution.
  const entry = await ctx.ws.resolveEntry(requested, { intent: "write" });
  if (entry.real === full.real || ctx.ws.roots.some((r) => r.real === entry.real)) return full;
  return { ...entry, requested };
}
