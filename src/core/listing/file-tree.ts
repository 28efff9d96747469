/**
 * mcp-workspace's list_directory rendering: a tree built from file paths, deep directories auto-collapsed
 * into `dir/ (N files)` while the listing exceeds 250 lines, then a hard cut at 250 with a summary line.
 */
import { escapeName } from "../paths.js";
import { walk } from "../walk.js";
import type { Root } from "../workspace.js";

export const TREE_LINE_LIMIT = 250;

/** The files below `start` (gitignore applied, `.git` never), relative to it with "/" separators. */
export async function filesUnder(root: Root, start: string, signal: AbortSignal): Promise<string[]> {
  const { entries } = await walk({ root, start, gitignore: true, signal, include: (_rel, isDir) => !isDir });
  return entries.filter((e) => e.type !== "dir").map((e) => e.rel);
}

interface TreeNode {
  name: string;
  depth: number;
  parent?: TreeNode;
  children: Map<string, TreeNode>;
  files: string[];
  collapsed: boolean;
  /** Files below a collapsed node, counted before it was emptied. */
  fileCount: number;
}

function node(name: string, depth: number, parent?: TreeNode): TreeNode {
  return { name, depth, parent, children: new Map(), files: [], collapsed: false, fileCount: 0 };
}

function build(files: readonly string[]): TreeNode {
  const root = node("", 0);
  for (const f of files) {
    const parts = f.split("/");
    let n = root;
    for (const dir of parts.slice(0, -1)) {
      let child = n.children.get(dir);
      if (!child) {
        child = node(dir, n.depth + 1, n);
        n.children.set(dir, child);
      }
      n = child;
    }
    n.files.push(parts[parts.length - 1]!);
  }
  return root;
}

/** Output lines of a node's contents (not the node's own line). */
function lines(n: TreeNode, dirsOnly: boolean): number {
  let count = dirsOnly ? 0 : n.files.length;
  for (const c of n.children.values()) count += c.collapsed ? 1 : (dirsOnly ? 1 : 0) + lines(c, dirsOnly);
  return count;
}

function fileTotal(n: TreeNode): number {
  if (n.collapsed) return n.fileCount;
  let total = n.files.length;
  for (const c of n.children.values()) total += fileTotal(c);
  return total;
}

function sortedKeys<T>(m: Map<string, T>): string[] {
  return [...m.keys()].sort();
}

/** Directories at depth ≥ 2 (immediate subdirectories are never collapsed), best collapse first. */
function candidates(root: TreeNode): TreeNode[] {
  const out: { n: TreeNode; score: number; order: number }[] = [];
  const visit = (n: TreeNode) => {
    for (const key of sortedKeys(n.children)) {
      const c = n.children.get(key)!;
      // Score = (direct files + 0.3 × direct subdirectories) × depth; it never changes while collapsing.
      if (c.depth >= 2)
        out.push({ n: c, score: (c.files.length + c.children.size * 0.3) * c.depth, order: out.length });
      visit(c);
    }
  };
  visit(root);
  out.sort(
    (a, b) => b.score - a.score || (a.n.name < b.n.name ? -1 : a.n.name > b.n.name ? 1 : a.order - b.order),
  );
  return out.map((o) => o.n);
}

function removed(n: TreeNode): boolean {
  for (let p = n.parent; p; p = p.parent) if (p.collapsed) return true;
  return false;
}

function collapse(root: TreeNode, dirsOnly: boolean): void {
  let count = lines(root, dirsOnly);
  if (count <= TREE_LINE_LIMIT) return;
  for (const c of candidates(root)) {
    if (count <= TREE_LINE_LIMIT) break;
    if (c.collapsed || removed(c)) continue;
    const before = (dirsOnly ? 1 : 0) + lines(c, dirsOnly);
    c.fileCount = fileTotal(c);
    c.collapsed = true;
    c.children.clear();
    c.files = [];
    count += 1 - before;
  }
}

function render(n: TreeNode, prefix: string, dirsOnly: boolean, out: string[]): void {
  for (const key of sortedKeys(n.children)) {
    const c = n.children.get(key)!;
    const dir = `${prefix}${escapeName(key)}/`;
    if (c.collapsed) out.push(c.fileCount > 0 ? `${dir} (${c.fileCount} files)` : dir);
    else {
      if (dirsOnly) out.push(dir);
      render(c, dir, dirsOnly, out);
    }
  }
  if (!dirsOnly) for (const f of [...n.files].sort()) out.push(prefix + escapeName(f));
}

/**
 * Renders files (paths relative to the listed directory, "/" separators) as project-relative lines under
 * `base` ("" for the project root).
 */
export function renderTree(files: readonly string[], base: string, dirsOnly: boolean): string[] {
  if (files.length === 0) return [];
  const root = build(files);
  collapse(root, dirsOnly);
  const out: string[] = [];
  render(root, base === "" || base === "." ? "" : `${base.replace(/\/+$/, "")}/`, dirsOnly, out);
  if (out.length <= TREE_LINE_LIMIT) return out;
  const rest = out.slice(TREE_LINE_LIMIT);
  const dirs = rest.filter((l) => l.endsWith("/") || l.includes("/ (")).length;
  return [
    ...out.slice(0, TREE_LINE_LIMIT),
    `... and ${rest.length} more entries (${dirs} dirs, ${rest.length - dirs} files) — ${out.length} total. ` +
      "Narrow with path=<subdir> or dirs_only=True.",
  ];
}
