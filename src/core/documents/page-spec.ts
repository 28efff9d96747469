import { ToolError } from "../errors.js";

/**
 * The 1-based numbers a page list names ("3-5,9", "7-" to the end), ascending, without repeats, within
 * `1..total`; undefined or empty means all.
 */
/** A `pages` value that is not a page list: `expected` says what it should look like. */
const pagesError = (part: string, expected: "pages" | "range") =>
  new ToolError("invalid", { reason: "doc_spec", parameter: "pages", actual: part, expected });

export function pageNumbers(spec: string | undefined, total: number): number[] {
  if (spec === undefined || spec.trim() === "") return Array.from({ length: total }, (_, i) => i + 1);
  const picked = new Set<number>();
  for (const part of spec.split(",")) {
    const m = /^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$/.exec(part);
    if (!m) throw pagesError(part.trim(), "pages");
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : m[3] ? Number(m[3]) : total;
    if (from < 1 || to < from) throw pagesError(part.trim(), "range");
    for (let p = from; p <= Math.min(to, total); p++) picked.add(p);
  }
  if (picked.size === 0)
    throw new ToolError("invalid", {
      reason: "doc_past_end",
      parameter: "pages",
      actual: spec,
      limit: total,
    });
  return [...picked].sort((a, b) => a - b);
}

/** The shortest page list naming `numbers` (ascending): [3,4,5,9] -> "3-5,9". */
export function pageSpec(numbers: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    parts.push(j === i ? `${numbers[i]}` : `${numbers[i]}-${numbers[j]}`);
    i = j + 1;
  }
  return parts.join(",");
}
