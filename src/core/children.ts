import fs from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { isErrno, ToolError } from "./errors.js";
import { TEMP_NAME } from "./files/safe-open.js";
import { printable } from "./paths.js";
import type { ResolvedPath, Root } from "./workspace.js";

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
    if (isErrno(err, "ENOTDIR"))
      throw new ToolError(`Not a directory: ${printable(dir.requested)}`, "not_directory");
    throw err;
  }
  const ignored = opts.gitignore ? await ignoredIn(dir.root, dir.relative) : () => false;
  const prefix = opts.prefix ?? "";
  const out: Child[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!e.name.startsWith(prefix) || TEMP_NAME.test(e.name)) continue;
    const isDir = e.isDirectory();
    if (ignored(e.name, isDir)) continue;
    if (out.length >= opts.limit) return { children: out, truncated: true };
    out.push({ name: e.name, dir: isDir });
  }
  return { children: out, truncated: false };
}

/**
 * A matcher for the children of `rel` (relative to the root, "/" separated): `.git` plus the rules of every
 * .gitignore from the root down to `rel` and of .git/info/exclude, each applied relative to its own folder.
 */
async function ignoredIn(root: Root, rel: string): Promise<(name: string, isDir: boolean) => boolean> {
  const segs = rel === "" ? [] : rel.split("/");
  const layers: { base: string[]; ig: Ignore }[] = [];
  const exclude = await readIfPresent(path.join(root.real, ".git", "info", "exclude"));
  if (exclude) layers.push({ base: [], ig: ignore().add(exclude) });
  for (let i = 0; i <= segs.length; i++) {
    const base = segs.slice(0, i);
    const text = await readIfPresent(path.join(root.real, ...base, ".gitignore"));
    if (text) layers.push({ base, ig: ignore().add(text) });
  }
  return (name, isDir) => {
    if (name === ".git") return true;
    for (const { base, ig } of layers) {
      const within = [...segs.slice(base.length), name].join("/");
      if (ig.ignores(isDir ? `${within}/` : within)) return true;
      // An ignored ancestor folder hides everything below it.
      const parts = segs.slice(base.length);
      for (let j = 1; j <= parts.length; j++) if (ig.ignores(`${parts.slice(0, j).join("/")}/`)) return true;
    }
    return false;
  };
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}
