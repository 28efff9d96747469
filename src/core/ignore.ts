// PLACEHOLDER until the engine helper's src/core/ignore.ts lands on main (same signature); on merge, take theirs.
import fs from "node:fs/promises";
import path from "node:path";
import ignore from "ignore";
import type { Root } from "./workspace.js";

async function rulesIn(file: string): Promise<string | undefined> {
  return fs.readFile(file, "utf8").catch(() => undefined);
}

/**
 * True when `rel` (relative to root.real, "/" separators) is under .git/ or ignored by the root .gitignore,
 * any nested .gitignore on its path, or .git/info/exclude.
 */
export async function isGitIgnored(root: Root, rel: string, isDir: boolean): Promise<boolean> {
  const parts = rel.split("/").filter((s) => s !== "" && s !== ".");
  if (parts.length === 0) return false;
  if (parts.includes(".git")) return true;
  const exclude = await rulesIn(path.join(root.real, ".git", "info", "exclude"));
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth);
    const ig = ignore();
    if (depth === 0 && exclude) ig.add(exclude);
    const rules = await rulesIn(path.join(root.real, ...dir, ".gitignore"));
    if (rules) ig.add(rules);
    // Every ancestor below this .gitignore's directory, then the path itself.
    for (let k = depth + 1; k <= parts.length; k++) {
      const sub = parts.slice(depth, k).join("/");
      const last = k === parts.length;
      if (ig.ignores(last && !isDir ? sub : `${sub}/`)) return true;
    }
  }
  return false;
}
