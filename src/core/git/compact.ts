import { lfPieces } from "../text/lines.js";
import { parsePatch } from "./output.js";

const MIN_BLOCK = 5;
const KEEP = 3;
const SIGNIFICANT = 10;

/** The path a file header names (`diff --git a/x b/y` → y). */
function fileName(header: readonly string[]): string {
  const plus = header.find((l) => l.startsWith("+++ "));
  if (plus && plus !== "+++ /dev/null") return plus.slice(4).replace(/^b\//, "");
  const minus = header.find((l) => l.startsWith("--- "));
  if (minus && minus !== "--- /dev/null") return minus.slice(4).replace(/^a\//, "");
  const m = /^diff --git a\/(.*) b\/(.*)$/.exec(header[0] ?? "");
  return m?.[2] ?? "?";
}

/**
 * Shrinks moved code in a patch: a run of at least 5 added (or removed) lines whose significant lines all
 * appear on the other side somewhere in the diff is cut to its first 3 non-blank lines and a marker naming
 * where it moved from (or to). Anything before the first file (commit header, --stat) is kept as is.
 */
export function compactDiff(text: string): string {
  const { prefix, files } = parsePatch(text);
  if (files.length === 0) return text;
  const removed = new Map<string, string>();
  const added = new Map<string, string>();
  for (const f of files) {
    const name = fileName(f.header);
    for (const h of f.hunks)
      for (const l of h.slice(1)) {
        const t = l.slice(1).trim();
        if (t.length < SIGNIFICANT) continue;
        if (l.startsWith("-")) removed.set(t, removed.get(t) ?? name);
        else if (l.startsWith("+")) added.set(t, added.get(t) ?? name);
      }
  }
  let suppressed = 0;
  const out: string[] = [...prefix];
  if (out.length && out[out.length - 1] === "") out.pop();
  for (const f of files) {
    out.push(...f.header);
    for (const h of f.hunks) {
      out.push(h[0]!);
      const body = h.slice(1);
      let i = 0;
      while (i < body.length) {
        const sign = body[i]![0];
        if (sign !== "+" && sign !== "-") {
          out.push(body[i]!);
          i++;
          continue;
        }
        let j = i;
        while (j < body.length && body[j]![0] === sign) j++;
        const run = body.slice(i, j);
        const other = sign === "+" ? removed : added;
        const significant = run.map((l) => l.slice(1).trim()).filter((t) => t.length >= SIGNIFICANT);
        const moved = significant.length > 0 && significant.every((t) => other.has(t));
        if (!moved || run.length < MIN_BLOCK) {
          out.push(...run);
        } else {
          const shown = run.filter((l) => l.slice(1).trim() !== "").slice(0, KEEP);
          const hidden = run.length - shown.length;
          const where = other.get(significant[0]!)!;
          out.push(...shown);
          out.push(
            sign === "+"
              ? `+# [moved from ${where}: ${hidden} lines not shown]`
              : `-# [moved to ${where}: ${hidden} lines not shown]`,
          );
          suppressed += hidden;
        }
        i = j;
      }
    }
  }
  if (suppressed === 0) return text;
  const before = lfPieces(text.replace(/\n$/, "")).length;
  const after = out.length;
  if (after >= before) return text;
  const pct = Math.round(((before - after) / before) * 100);
  return `# Compact diff: ${before} → ${after} lines (${pct}% reduction, ${suppressed} lines suppressed)\n${out.join("\n")}`;
}
