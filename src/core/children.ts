import fs from "node:fs/promises";
import { isErrno, ToolError } from "./errors.js";
import { isTempName } from "./fs/safe-open.js";
import { createIgnoreOracle } from "./ignore.js";
import { namesOf, type ResolvedPath } from "./workspace.js";

export interface Child {
  name: string;
  dir: boolean;
}

export interface ChildrenOptions {
  /** Skip `.git/` and what .gitignore files (and .git/info/exclude) ignore. */
  gitignore: boolean;
  /** Only names starting with this. */
  prefix?: string;
  /** Stop after this many entries (`truncated` is then true). */
  limit: number;
}

/** The direct children of a resolved directory, sorted by name, without mcpfs temp files. */
export async function listChildren(
  dir: ResolvedPath,
  opts: ChildrenOptions,
): Promise<{ children: Child[]; truncated: boolean }> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir.real, { withFileTypes: true });
  } catch (err) {
    if (isErrno(err, "ENOTDIR")) throw new ToolError("not_directory", { path: dir.requested });
    throw err;
  }
  const ignored = opts.gitignore ? createIgnoreOracle(dir.root, dir.real) : () => false;
  const prefix = opts.prefix ?? "";
  const out: Child[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!e.name.startsWith(prefix) || isTempName(e.name, dir.root)) continue;
    if (dir.root.deny?.deniesChild(dir.relative, e.name, namesOf(dir.root).foldsCase)) continue;
    const isDir = e.isDirectory();
    if (ignored(e.name, isDir)) continue;
    if (out.length >= opts.limit) return { children: out, truncated: true };
    out.push({ name: e.name, dir: isDir });
  }
  return { children: out, truncated: false };
}
