import path from "node:path";
import { screenRequestedPath } from "../../core/paths.js";
import { deniedError, type ResolvedPath } from "../../core/workspace.js";
import type { ToolContext } from "../tool.js";

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
  let parent: ResolvedPath;
  try {
    // Read intent: the parent itself is not changed (a read-only dir below it must not refuse this entry).
    parent = await ctx.ws.resolve(path.dirname(trimmed), { intent: "read" });
  } catch {
    // Word any refusal on the path the client sent, never on a parent it did not name.
    throw deniedError(requested);
  }
  const real = path.join(parent.real, name);
  if (real === full.real || ctx.ws.roots.some((r) => r.real === real)) return full;
  const relative = parent.relative === "" ? name : `${parent.relative}/${name}`;
  const entry: ResolvedPath = { requested, real, root: parent.root, exists: false, relative };
  ctx.ws.checkWritable(entry);
  return entry;
}
