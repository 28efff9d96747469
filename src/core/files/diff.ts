import { createTwoFilesPatch, structuredPatch } from "diff";
import { toLf } from "./text-format.js";

/**
 * A unified diff (3 lines of context) between two texts, in the official server's layout:
 * `Index:` header, `=` rule, `--- <name>\toriginal`, `+++ <name>\tmodified`, then hunks.
 * Line endings are compared as LF so a CRLF file does not diff as every line changed.
 */
export function unifiedDiff(name: string, before: string, after: string): string {
  return createTwoFilesPatch(name, name, toLf(before), toLf(after), "original", "modified");
}

/**
 * The diff wrapped in a ```diff fence long enough that no backtick run inside the diff closes it,
 * followed by a blank line (the official edit_file reply).
 */
export function fencedDiff(diff: string): string {
  let n = 3;
  while (diff.includes("`".repeat(n))) n++;
  const fence = "`".repeat(n);
  return `${fence}diff\n${diff}${fence}\n\n`;
}

/** Counts added and removed lines of a unified diff (header lines excluded). */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) inHunks = true;
    else if (!inHunks) continue;
    else if (line.startsWith("+")) added++;
    else if (line.startsWith("-")) removed++;
  }
  return { added, removed };
}

/**
 * A git-style unified diff as Python's difflib writes it (mcp-workspace's edit_file reply): `--- a/<name>`,
 * `+++ b/<name>`, 3 lines of context, difflib's hunk ranges (`-5` for one line, `-4,0` for none), no
 * "No newline at end of file" marker. Empty when nothing changed.
 */
export function gitStyleDiff(name: string, before: string, after: string): string {
  const a = toLf(before);
  const b = toLf(after);
  if (a === b) return "";
  const range = (start: number, count: number) =>
    count === 1 ? `${start}` : count === 0 ? `${start - 1},0` : `${start},${count}`;
  const out = [`--- a/${name}`, `+++ b/${name}`];
  for (const h of structuredPatch(name, name, a, b, "", "", { context: 3 }).hunks) {
    out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`);
    for (const line of h.lines) if (!line.startsWith("\\")) out.push(line);
  }
  return `${out.join("\n")}\n`;
}
