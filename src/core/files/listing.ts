import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { mapLimit } from "../concurrency.js";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath, Workspace } from "../workspace.js";
import { TEMP_NAME } from "./safe-open.js";

export type EntryType = "file" | "dir" | "symlink" | "other";

export interface LinkInfo {
  /** The link's text as stored (shown only when it resolves inside the allowed roots). */
  target: string;
  /** What the target is; `missing` for a dangling link. */
  targetType: "file" | "dir" | "other" | "missing";
}

export interface ListedEntry {
  name: string;
  type: EntryType;
  /** Bytes, for files (and for links whose target is an in-root file). Never for anything outside. */
  size?: number;
  mtimeMs?: number;
  /** Present only for a symlink whose target lies inside the allowed roots. */
  link?: LinkInfo;
}

export interface ListOptions {
  /** lstat every entry for size and mtime. */
  stats?: boolean;
}

/** Code-unit order: the same on every machine and locale. */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export function direntType(d: Dirent): EntryType {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "dir";
  if (d.isFile()) return "file";
  return "other";
}

/**
 * The entries of a directory, sorted by name, with symlinks reported as symlinks. A link's target (and its
 * type and size) is described only when it resolves inside the roots; otherwise nothing about it leaks.
 * mcpfs's own temp files are hidden.
 */
export async function listDirectory(
  ws: Workspace,
  dir: ResolvedPath,
  opts: ListOptions = {},
): Promise<ListedEntry[]> {
  let dirents: Dirent[];
  try {
    dirents = await fs.readdir(dir.real, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR")
      throw new ToolError(`Not a directory: ${printable(dir.requested)}`, "not_directory");
    if (code === "ENOENT")
      throw new ToolError(`No such file or directory: ${printable(dir.requested)}`, "not_found");
    throw err;
  }
  const visible = dirents.filter((d) => !TEMP_NAME.test(d.name));
  const entries = await mapLimit(visible, 64, async (d): Promise<ListedEntry> => {
    const type = direntType(d);
    const full = path.join(dir.real, d.name);
    const entry: ListedEntry = { name: d.name, type };
    if (type === "symlink") {
      const link = await describeLink(ws, full);
      if (link) {
        entry.link = link.info;
        if (opts.stats && link.size !== undefined) entry.size = link.size;
      }
      return entry;
    }
    if (opts.stats) {
      const st = await fs.lstat(full).catch(() => undefined);
      if (st) {
        if (type === "file") entry.size = st.size;
        entry.mtimeMs = st.mtimeMs;
      }
    }
    return entry;
  });
  return entries.sort(byName);
}

/** The in-root facts about a symlink, or undefined when its target is outside the roots. */
export async function describeLink(
  ws: Workspace,
  linkPath: string,
): Promise<{ info: LinkInfo; size?: number } | undefined> {
  let text: string;
  try {
    text = await fs.readlink(linkPath);
  } catch {
    return undefined;
  }
  let real: string;
  try {
    real = await fs.realpath(linkPath);
  } catch {
    // Dangling: describe it only if where it points is inside on its face.
    const lexical = path.resolve(path.dirname(linkPath), text);
    return ws.contains(lexical) ? { info: { target: text, targetType: "missing" } } : undefined;
  }
  if (!ws.contains(real)) return undefined;
  const st = await fs.stat(real).catch(() => undefined);
  if (!st) return { info: { target: text, targetType: "missing" } };
  const targetType = st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  return { info: { target: text, targetType }, size: st.isFile() ? st.size : undefined };
}
