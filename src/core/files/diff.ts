import { createTwoFilesPatch } from "diff";
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
