import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { ToolError } from "../errors.js";

/** Longest glob accepted; matching costs O(path length × pattern length), so the pattern is bounded. */
const MAX_GLOB_LENGTH = 1024;
/** Most globs one call may give (excludePatterns, grep globs): each is tried against every path. */
export const MAX_GLOBS = 256;

/**
 * The one compiler for user globs (search patterns, excludePatterns, grep and workspace search globs).
 * Semantics are picomatch's with `dot: true` — its parser writes the regex — but the regex never runs on
 * V8's backtracking engine unless it is linear by shape: `*a*a*a*a*a*a*a*a*b` against a 60-character name
 * took picomatch over 30 s. Everything else runs on RE2 (re2js), which is linear in the input.
 *
 * Paths are relative, non-empty, `/`-separated, without `.`/`..` segments or a trailing `/` (what every
 * walker hands over). For such paths picomatch's lookaheads — "no `.`/`..` segment", "something follows" —
 * always hold, so they are dropped; the one lookahead with meaning, a negated extglob `!(…)`, is refused.
 * `.` also matches a newline (dotall), so `**` crosses a directory whose name holds one.
 *
 * @throws ToolError `invalid` for a glob longer than MAX_GLOB_LENGTH or using `!(…)`.
 */
export function compileGlob(glob: string): (rel: string) => boolean {
  if (glob.length > MAX_GLOB_LENGTH)
    throw new ToolError("invalid", {
      reason: "glob_too_long",
      name: glob,
      actual: glob.length,
      limit: MAX_GLOB_LENGTH,
    });
  // A leading `!` negates the whole pattern (picomatch), unless it opens an extglob `!(…)`.
  let negated = false;
  let body = glob;
  while (body.startsWith("!") && !body.startsWith("!(")) {
    negated = !negated;
    body = body.slice(1);
  }
  const test = compileBody(body, glob);
  return negated ? (rel) => !test(rel) : test;
}

/**
 * Several globs as one test (true when any matches). Those whose regex is linear on V8's engine by shape
 * (see `linearOnBacktracking`) run as one alternation of anchored branches, whose cost is the sum of the
 * branches' (measured on 21 name globs: about 6× faster than testing them one by one); the others are
 * compiled one by one as `compileGlob` does (which also raises its errors).
 */
export function compileGlobAny(globs: readonly string[]): (rel: string) => boolean {
  const joined: string[] = [];
  const others: ((rel: string) => boolean)[] = [];
  for (const g of globs) {
    const source = g.startsWith("!") || g.length > MAX_GLOB_LENGTH ? undefined : linearSource(g);
    if (source === undefined) others.push(compileGlob(g));
    else joined.push(`(?:${source})`);
  }
  const re = joined.length > 0 ? new RegExp(joined.join("|"), "s") : undefined;
  if (others.length === 0) return (rel) => re?.test(rel) === true;
  return (rel) => re?.test(rel) === true || others.some((test) => test(rel));
}

/** The anchored V8 source of a glob that is linear by shape, or undefined (compile it with RE2 instead). */
function linearSource(glob: string): string | undefined {
  if (!linearOnBacktracking(glob)) return undefined;
  try {
    const posix = process.platform === "win32" ? glob.replace(/\\/g, "/") : glob;
    const source = withoutLookaheads(picomatch.makeRe(posix, { dot: true, windows: false }).source);
    return /\(\?<?[=!]/.test(source) || !source.startsWith("^") || !source.endsWith("$") ? undefined : source;
  } catch {
    return undefined;
  }
}

/** Checks how many globs a call gives (see MAX_GLOBS); `what`: which list (the words name it). */
export function checkGlobCount(globs: readonly string[], what: "globs" | "exclude"): void {
  if (globs.length > MAX_GLOBS)
    throw new ToolError("invalid", {
      reason: "too_many_globs",
      parameter: what,
      actual: globs.length,
      limit: MAX_GLOBS,
    });
}

/** picomatch's lookaheads that always hold for the paths described above. */
const TRIVIAL_LOOKAHEADS = [
  String.raw`(?!(?:^|\/)\.{1,2}(?:\/|$))`,
  String.raw`(?!\.{1,2}(?:\/|$))`,
  String.raw`(?!\.{0,1}(?:\/|$))`,
];

/**
 * Drops picomatch's lookaheads. "Something follows" (`(?=.)`, before a star that starts a segment) can
 * only fail at the end of the path, which such a path reaches early only through a globstar's "no more
 * segments" branch (`|$)`, as in `a/**` + `/*`): that branch is removed where `(?=.)` follows it.
 */
function withoutLookaheads(source: string): string {
  let s = source;
  for (const l of TRIVIAL_LOOKAHEADS) s = s.split(l).join("");
  return s.split("|$)(?=.)").join(")").split("(?=.)").join("");
}

function compileBody(body: string, glob: string): (rel: string) => boolean {
  let source: string;
  try {
    // Paths use "/" on every platform; on Windows a "\\" in a glob is a separator (as picomatch does there).
    const posix = process.platform === "win32" ? body.replace(/\\/g, "/") : body;
    source = picomatch.makeRe(posix, { dot: true, windows: false }).source;
  } catch (err) {
    throw new ToolError("invalid", { reason: "glob_invalid", name: glob, cause: (err as Error).message });
  }
  source = withoutLookaheads(source);
  if (/\(\?<?[=!]/.test(source))
    throw new ToolError("invalid", { reason: "glob_negated_extglob", name: glob });
  if (linearOnBacktracking(body)) {
    const re = new RegExp(source, "s");
    return (rel) => re.test(rel);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.DOTALL);
  } catch (err) {
    throw new ToolError("invalid", { reason: "glob_invalid", name: glob, cause: (err as Error).message });
  }
  return (rel) => re.matches(rel);
}

/**
 * Globs whose picomatch regex backtracks at most linearly (times the pattern's segment count), so V8 may
 * run them (about 8× faster than re2js on `**` + `*.ts`, the commonest search): no alternation, braces or
 * extglobs, at most one `**` segment, and at most one run of `*` in every other segment. Two stars in one
 * segment or two globstars are where backtracking multiplies; those go to RE2.
 */
function linearOnBacktracking(body: string): boolean {
  if (/[{}()|\\]/.test(body)) return false;
  let globstars = 0;
  for (const segment of body.split("/")) {
    if (segment === "**") {
      if (++globstars > 1) return false;
      continue;
    }
    const runs = segment.match(/\*+/g);
    if (runs && runs.length > 1) return false;
  }
  return true;
}
