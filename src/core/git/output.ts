import { RE2JS } from "re2js";
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";

/** A case-insensitive, linear-time matcher for a user's search pattern (no ReDoS). */
export function searchMatcher(pattern: string): (line: string) => boolean {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    const msg = (err as Error).message.replace(/^error parsing regexp: /, "").replace("`(?i)", "`");
    throw new ToolError("invalid", { reason: "git_search", parameter: "search", cause: msg });
  }
  return (line) => re.matcher(line).find();
}

/** First `max` lines plus a count of the rest. */
export function truncateLines(text: string, max: number): string {
  const lines = lfPieces(text);
  if (lines.length <= max) return text;
  return `${lines.slice(0, max).join("\n")}\n[truncated — ${lines.length - max} more lines]`;
}

/** git log: keeps whole commit entries that match (one entry per line for one-line formats). */
export function filterLog(text: string, match: (l: string) => boolean): string {
  const lines = lfPieces(text);
  const entries: string[][] = [];
  const starts = lines.some((l) => /^commit [0-9a-f]{7,}/.test(l));
  for (const line of lines) {
    if (!starts || /^commit [0-9a-f]{7,}/.test(line) || entries.length === 0) entries.push([line]);
    else entries[entries.length - 1]!.push(line);
  }
  return entries
    .filter((e) => e.some(match))
    .map((e) => e.join("\n").replace(/\n+$/, ""))
    .join(starts ? "\n\n" : "\n");
}

interface DiffFile {
  header: string[];
  hunks: string[][];
}

/** Splits a patch into a non-patch prefix (commit header, stat) and per-file headers + hunks. */
export function parsePatch(text: string): { prefix: string[]; files: DiffFile[] } {
  const prefix: string[] = [];
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: string[] | undefined;
  for (const line of lfPieces(text)) {
    if (
      line.startsWith("diff --git ") ||
      line.startsWith("diff --cc ") ||
      line.startsWith("diff --combined ")
    ) {
      file = { header: [line], hunks: [] };
      files.push(file);
      hunk = undefined;
    } else if (file && line.startsWith("@@")) {
      hunk = [line];
      file.hunks.push(hunk);
    } else if (hunk && (line === "" || /^[ +\-\\]/.test(line))) {
      hunk.push(line);
    } else if (file && !hunk) {
      file.header.push(line);
    } else if (!file) {
      prefix.push(line);
    } else {
      // A line after a patch that is not part of it (e.g. the next commit's header in log -p).
      file = undefined;
      hunk = undefined;
      prefix.push(line);
    }
  }
  return { prefix, files };
}

/** diff/show: file headers plus the matching lines of matching hunks, with `context` lines around them. */
export function filterDiff(text: string, match: (l: string) => boolean, context: number): string {
  const { prefix, files } = parsePatch(text);
  const out: string[] = [];
  const headerText = prefix.join("\n").trim();
  for (const f of files) {
    const kept: string[] = [];
    for (const h of f.hunks) {
      const body = h.slice(1);
      const hits = body.map((l, i) =>
        (l.startsWith("+") || l.startsWith("-")) && match(l.slice(1)) ? i : -1,
      );
      const idx = hits.filter((i) => i >= 0);
      if (idx.length === 0) continue;
      kept.push(h[0]!);
      kept.push(...regions(body, idx, context));
    }
    if (kept.length > 0) out.push(...f.header, ...kept);
  }
  if (out.length === 0) return "";
  return (headerText ? `${headerText}\n\n` : "") + out.join("\n");
}

/** Grep-style: matching lines with `context` lines around, regions separated by `--`. */
export function filterLines(text: string, match: (l: string) => boolean, context: number): string {
  const lines = lfPieces(text);
  const idx = lines.map((l, i) => (match(l) ? i : -1)).filter((i) => i >= 0);
  return idx.length === 0 ? "" : regions(lines, idx, context).join("\n");
}

function regions(lines: readonly string[], hits: readonly number[], context: number): string[] {
  const out: string[] = [];
  let lastEnd = -1;
  for (const i of hits) {
    const start = Math.max(0, i - context);
    const end = Math.min(lines.length - 1, i + context);
    if (start <= lastEnd) {
      for (let k = lastEnd + 1; k <= end; k++) out.push(lines[k]!);
    } else {
      if (lastEnd >= 0) out.push("--");
      for (let k = start; k <= end; k++) out.push(lines[k]!);
    }
    lastEnd = Math.max(lastEnd, end);
  }
  return out;
}
