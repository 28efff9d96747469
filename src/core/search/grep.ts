import fs from "node:fs";
import path from "node:path";
import { ToolError } from "../errors.js";
import type { EngineJob, GrepMatch, GrepOptions, GrepResult, GrepTarget, Hit, RawGrep } from "./grep-job.js";
import { admitPattern } from "./regex-admit.js";

/** Beyond this many matches an engine stops collecting whatever the caller asked (memory bound). */
const HARD_CAP = 100_000;

export async function grep(opts: GrepOptions): Promise<GrepResult> {
  if (opts.signal?.aborted) throw new ToolError("cancelled", {});
  // Before any engine: both compile the pattern on this thread (ripgrep's hits are re-read and matched here).
  await admitPattern(opts.pattern, opts.literal === true, opts.caseSensitive !== false);
  // Both engines accept the same globs, with the same limits and errors (ripgrep's own matcher is linear).
  if (opts.globs) (await import("./globs.js")).compileGlobs(opts.globs);
  // Engines load on first use: they pull in re2js, picomatch and child_process, which cold start need not pay.
  const { findRipgrep, grepWithRipgrep } = await import("./grep-rg.js");
  const engine = await pickEngine(opts.encoding ? "js" : opts.engine, findRipgrep);
  const want = opts.maxResults ?? Number.POSITIVE_INFINITY;
  if (!(want >= 1))
    throw new ToolError("invalid", { reason: "max_results", parameter: "maxResults", limit: 1 });
  // Every match up to the hard cap is collected and then sorted, so a page is the true first maxResults
  // after offset and pages neither overlap nor leave gaps. (Stopping the engine at maxResults would keep
  // whichever matches its threads found first.)
  // Context lines multiply what each match holds, so the cap shrinks with them (about 40 MB at most).
  const collectCap = Math.floor(HARD_CAP / (1 + 2 * (opts.contextLines ?? 0))) + 1;
  const job: EngineJob = { ...opts, collectCap };
  const js = await import("./grep-js.js");
  // Starting ripgrep costs ~20 ms; on a small scope the in-process engine is done sooner (same rules).
  const small = engine.rg && engine.auto ? await smallScope(job, js.listTargets) : undefined;
  if (!engine.rg || small) {
    const raw = await js.grepWithJs(job, small?.targets);
    return fitBudget(page(raw, opts), opts, "js", small ? small.ignored : raw.ignored);
  }
  // The caller reads each file through the gate itself: re-reading all of them here (a tree-wide word can be
  // in 25,000 files) only churned memory for an answer that is read again anyway.
  if (opts.filesOnly && opts.candidates)
    return fitBudget({ ...page(await grepWithRipgrep(job, engine.rg), opts), matches: [] }, opts, "rg", 0);
  // ripgrep does not say what it left out: the walker counts it meanwhile (a listing of the kept folders).
  const [rgRaw, ignored] = await Promise.all([grepWithRipgrep(job, engine.rg), js.countIgnored(job)]);
  const found = mayFit(page(rgRaw, opts), opts);
  // ripgrep opens files by path, so a folder swapped for a symlink meanwhile could lead it outside: it only
  // picks the page's files and lines; what is returned is read again through the verified open (at most
  // maxResults files), and only then held to the byte budget.
  if (found.files.length === 0)
    return { matches: [], files: [], truncated: found.truncated, engine: "rg", ignored };
  const single = await isFileTarget(job.start);
  const targets = found.files.map((rel) => ({ rel, real: single ? job.start : path.join(job.start, rel) }));
  const again = await js.grepWithJs(job, targets);
  if (opts.filesOnly) {
    const still = new Set(again.files);
    const files = found.files.filter((f) => still.has(f));
    return fitBudget({ ...found, files, matches: [] }, opts, "rg", ignored);
  }
  const byKey = new Map(again.matches.map((m) => [`${m.line}\0${m.path}`, m]));
  const matches = found.matches.flatMap((m) => byKey.get(`${m.line}\0${m.path}`) ?? []);
  return fitBudget({ matches, files: filesOf(matches), truncated: found.truncated }, opts, "rg", ignored);
}

/** Up to this many files and bytes, the auto engine searches in process rather than starting ripgrep. */
const SMALL_SCOPE_FILES = 200;
const SMALL_SCOPE_BYTES = 2 * 1024 * 1024;

/**
 * The scope's files when they are few and small enough for the in-process engine, else undefined. Only a
 * probe that walked the WHOLE scope may choose: a count of a partial walk says nothing about the rest.
 */
async function smallScope(
  job: EngineJob,
  listTargets: (
    job: EngineJob,
    limit?: number,
  ) => Promise<{ targets: GrepTarget[]; more: boolean; ignored: number }>,
): Promise<{ targets: GrepTarget[]; ignored: number } | undefined> {
  const { targets, more, ignored } = await listTargets(job, SMALL_SCOPE_FILES + 1);
  if (more || targets.length > SMALL_SCOPE_FILES) return undefined;
  let bytes = 0;
  for (const t of targets) {
    bytes += fs.statSync(t.real, { throwIfNoEntry: false })?.size ?? 0;
    if (bytes > SMALL_SCOPE_BYTES) return undefined;
  }
  return { targets, ignored };
}

async function pickEngine(
  requested: GrepOptions["engine"],
  findRipgrep: () => Promise<string | undefined>,
): Promise<{ rg?: string; auto: boolean }> {
  const choice = requested ?? "auto";
  if (choice === "js") return { auto: false };
  const rg = await findRipgrep();
  if (choice === "rg" && !rg) throw new ToolError("io", { reason: "ripgrep_missing" });
  return rg ? { rg, auto: choice === "auto" } : { auto: choice === "auto" };
}

/** Whether a grep start is a single file (its matches then carry the file's base name as path). */
export async function isFileTarget(real: string): Promise<boolean> {
  return (await fs.promises.stat(real)).isFile();
}

const byPathThenLine = (a: Hit, b: Hit) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);

function filesOf(matches: readonly Hit[]): string[] {
  const files: string[] = [];
  for (const m of matches) if (files[files.length - 1] !== m.path) files.push(m.path);
  return files;
}

/**
 * The bytes each hit adds to a reply in ripgrep's heading layout, which the surfaces print: its file's path
 * once (with the blank line before it), then its rows. Stateful over hits sorted by path. (Counting the path
 * on every row cut pages to about two thirds of the budget.)
 */
function headed<T extends Hit>(rows: (hit: T) => number): (hit: T) => number {
  let file: string | undefined;
  return (hit) => {
    const n = (hit.path === file ? 0 : hit.path.length + 2) + rows(hit);
    file = hit.path;
    return n;
  };
}

/** A match's rows, `12: text` and its newline each, and with context a `--` line that may separate them. */
function matchBytes(withContext: boolean): (m: GrepMatch) => number {
  const row = (line: number, text: string) => String(line).length + text.length + (withContext ? 6 : 3);
  return headed<GrepMatch>((m) => {
    let n = row(m.line, m.text);
    for (const c of m.before) n += row(c.line, c.text);
    for (const c of m.after) n += row(c.line, c.text);
    return n;
  });
}

/** The page: sorted by path then line, `offset` skipped, at most `maxResults` (files when filesOnly). */
function page<T extends Hit>(
  raw: RawGrep<T>,
  opts: GrepOptions,
): { matches: T[]; files: string[]; truncated: boolean } {
  const want = opts.maxResults ?? Number.POSITIVE_INFINITY;
  const offset = opts.offset ?? 0;
  let truncated = raw.capped;
  if (opts.filesOnly) {
    let files = [...new Set(raw.files)].sort().slice(offset);
    if (files.length > want) {
      files = files.slice(0, want);
      truncated = true;
    }
    return { matches: [], files, truncated };
  }
  let matches = raw.matches.sort(byPathThenLine).slice(offset);
  if (matches.length > want) {
    matches = matches.slice(0, want);
    truncated = true;
  }
  return { matches, files: filesOf(matches), truncated };
}

/** A page held to the byte budget: the longest prefix of it that fits. */
function fitBudget(
  p: { matches: GrepMatch[]; files: string[]; truncated: boolean },
  opts: GrepOptions,
  engine: "rg" | "js",
  ignored: number,
): GrepResult {
  if (opts.filesOnly) {
    const files = fitting(p.files, fileBytes, opts.budgetBytes);
    return { matches: [], files, truncated: p.truncated || files.length < p.files.length, engine, ignored };
  }
  const matches = fitting(p.matches, matchBytes((opts.contextLines ?? 0) > 0), opts.budgetBytes);
  const cut = matches.length < p.matches.length;
  const files = cut ? filesOf(matches) : p.files;
  return { matches, files, truncated: p.truncated || cut, engine, ignored };
}

/**
 * ripgrep's page cut to what can fit the budget before its text is read: a hit needs at least its row's
 * line number and punctuation, and its file's path once (text and context add to it), so no hit the
 * budget would keep is cut, and the files read again stay about as few as the reply holds.
 */
function mayFit(p: { matches: Hit[]; files: string[]; truncated: boolean }, opts: GrepOptions) {
  if (opts.filesOnly) {
    const files = fitting(p.files, fileBytes, opts.budgetBytes);
    return { ...p, files, truncated: p.truncated || files.length < p.files.length };
  }
  const matches = fitting(
    p.matches,
    headed((h) => String(h.line).length + 3),
    opts.budgetBytes,
  );
  if (matches.length === p.matches.length) return p;
  return { matches, files: filesOf(matches), truncated: true };
}

const fileBytes = (f: string) => f.length + 1;

/** The longest prefix of `items` whose sizes add up to at most `budget`. */
function fitting<T>(items: T[], size: (item: T) => number, budget = Number.POSITIVE_INFINITY): T[] {
  let used = 0;
  for (let keep = 0; keep < items.length; keep++) {
    used += size(items[keep]!);
    if (used > budget) return items.slice(0, keep);
  }
  return items;
}
