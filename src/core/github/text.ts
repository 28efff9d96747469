import { lfPieces } from "../text/lines.js";

/** Output helpers shared by the GitHub tools. */

/** Cuts to `max` lines with mcp-workspace's notice. */
export function truncateOutput(text: string, max: number): string {
  const lines = lfPieces(text);
  if (lines.length <= max) return text;
  return `${lines.slice(0, max).join("\n")}\n\n... truncated: showing ${max} of ${lines.length} lines. Pass max_lines=${lines.length} for the full output.`;
}

export function listOr(items: readonly string[], none: string): string {
  return items.length ? items.join(", ") : none;
}

export function pyBool(b: boolean | null | undefined): string {
  return b ? "True" : "False";
}

/** Label names from GitHub's label field (strings or objects). */
export function labelNames(labels: readonly (string | { name?: string | null })[] | undefined): string[] {
  return (labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter(Boolean);
}
