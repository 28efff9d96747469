/**
 * Where text that was not found comes closest in a file: a patch hunk's old side, or an edit's oldText. The
 * one search both apply_patch and edit_file report from, so a near miss reads the same everywhere.
 */

export interface NearMiss {
  /** 0-based index of the window's first file line. */
  at: number;
  /** Window lines equal to the wanted ones, trailing whitespace aside. */
  equal: number;
  /** Index (in the wanted lines) of the first line that differs, or -1 when none does. */
  firstDiff: number;
}

/** Line pairs compared at most (a longer file is sampled with a stride): a miss on a big file stays fast. */
const COMPARISONS = 5_000_000;
/** Characters of each line a likeness looks at. */
const LIKENESS_CHARS = 200;

/** How alike two lines are, 0..1: 1 when equal but for indentation, else the shared head and tail. */
function likeness(a: string, b: string): number {
  const x = a.trim().slice(0, LIKENESS_CHARS);
  const y = b.trim().slice(0, LIKENESS_CHARS);
  if (x === y) return 1;
  const most = Math.max(x.length, y.length);
  let head = 0;
  while (head < x.length && head < y.length && x[head] === y[head]) head++;
  let tail = 0;
  while (
    tail < x.length - head &&
    tail < y.length - head &&
    x[x.length - 1 - tail] === y[y.length - 1 - tail]
  )
    tail++;
  return (0.9 * (head + tail)) / most;
}

/**
 * The window of `want.length` file lines (starting at `min` or later) most like `want`, line by line; ties go
 * to the window nearest `expected`. Undefined when no window's likeness (the sum over its lines, each 0..1)
 * exceeds `above` (default: half its lines, below which there is nothing worth showing).
 */
export function nearestRegion(
  file: readonly string[],
  want: readonly string[],
  opts: { expected?: number; min?: number; above?: number } = {},
): NearMiss | undefined {
  const { expected = 0, min = 0 } = opts;
  const n = want.length;
  if (n === 0 || file.length - min < n) return undefined;
  const step = n * (file.length - min) > COMPARISONS ? Math.ceil((n * (file.length - min)) / COMPARISONS) : 1;
  let best = -1;
  let bestScore = 0;
  for (let at = min; at + n <= file.length; at += step) {
    let score = 0;
    for (let j = 0; j < n; j++) score += likeness(file[at + j]!, want[j]!);
    if (score > bestScore || (score === bestScore && Math.abs(at - expected) < Math.abs(best - expected))) {
      best = at;
      bestScore = score;
    }
  }
  if (best < 0 || bestScore <= (opts.above ?? n / 2)) return undefined;
  let equal = 0;
  let firstDiff = -1;
  for (let j = 0; j < n; j++) {
    if (file[best + j]!.trimEnd() === want[j]!.trimEnd()) equal++;
    else if (firstDiff < 0) firstDiff = j;
  }
  return { at: best, equal, firstDiff };
}

/** Diff lines shown of a near miss at most, and characters of each. */
const DIFF_LINES = 12;
const DIFF_CHARS = 120;

/** A line cut to `max` characters (with "..." when cut). */
export function clip(s: string, max = DIFF_CHARS): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/**
 * A near miss as a short diff: its line numbers, then each wanted line against the file's (" " equal, "-"
 * what was asked, "+" what the file has), at most DIFF_LINES lines.
 */
export function nearMissDiff(file: readonly string[], want: readonly string[], miss: NearMiss): string {
  const n = want.length;
  const where = n === 1 ? `line ${miss.at + 1}` : `lines ${miss.at + 1}-${miss.at + n}`;
  const out: string[] = [];
  for (let j = 0; j < n; j++) {
    const has = file[miss.at + j]!;
    if (has.trimEnd() === want[j]!.trimEnd()) out.push(`  ${clip(has)}`);
    else out.push(`- ${clip(want[j]!)}`, `+ ${clip(has)}`);
  }
  const shown =
    out.length > DIFF_LINES
      ? [...out.slice(0, DIFF_LINES), `  ... (${out.length - DIFF_LINES} more diff lines)`]
      : out;
  return `Closest match: ${where} (${miss.equal} of ${n} lines equal; - expected, + file):\n${shown.join("\n")}`;
}
