import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolError } from "../errors.js";
import { isTempName } from "../fs/safe-open.js";
import { ancestorLevels, createIgnoreOracle, type IgnoreLevel } from "../ignore.js";
import { clipped, hasGitDirSegment } from "../paths.js";
import { namesOf } from "../root.js";
import { lfPieces } from "../text/lines.js";
import { anchorGlobs, compileGlobs } from "./globs.js";
import type { EngineJob, Hit, RawGrep } from "./grep-job.js";
import { RG_RECORD_FLAGS, rgRecords } from "./rg-records.js";

/** The ripgrep binary shipped inside @vscode/ripgrep, when it is installed and executable. */
export async function findRipgrep(): Promise<string | undefined> {
  try {
    const { rgPath } = (await import("@vscode/ripgrep")) as { rgPath: string };
    fs.accessSync(rgPath, fs.constants.X_OK);
    return rgPath;
  } catch {
    return undefined;
  }
}

/**
 * Ancestor rules rewritten for ripgrep's `--ignore-file`, whose patterns are matched relative to its working
 * directory (the root): a rule of `a/.gitignore` becomes `/a/**\/rule` (unanchored) or `/a/rule` (anchored).
 */
export function rebaseRules(levels: readonly IgnoreLevel[]): string[] {
  const out: string[] = [];
  for (const lv of levels) {
    for (const raw of lv.lines) {
      const line = raw.replace(/(?<!\\)\s+$/, "");
      if (lv.dirFromRoot === "") {
        out.push(line);
        continue;
      }
      const negated = line.startsWith("!");
      const body = negated ? line.slice(1) : line;
      const dirOnly = body.endsWith("/");
      const core = dirOnly ? body.slice(0, -1) : body;
      const rebased = core.includes("/")
        ? `/${lv.dirFromRoot}/${core.replace(/^\//, "")}`
        : `/${lv.dirFromRoot}/**/${core}`;
      out.push(`${negated ? "!" : ""}${rebased}${dirOnly ? "/" : ""}`);
    }
  }
  return out;
}

/**
 * Runs ripgrep from the root with the walker's rules: .gitignore (nested too) and .git/info/exclude even
 * outside a git repository, hidden files included, .git/ skipped, no global/.ignore/.rgignore files, no
 * parent directories outside the root (the rules between root and start are passed as an ignore file).
 * ripgrep only names the matching lines (path, line number); their text is read again by the caller.
 */
export async function grepWithRipgrep(job: EngineJob, rgPath: string): Promise<RawGrep<Hit>> {
  const { root, start } = job;
  const startRel = path.relative(root.real, start).split(path.sep).join("/");
  const isFile = fs.statSync(start).isFile();
  const args = [...RG_RECORD_FLAGS, "--no-config", "--hidden", "--crlf", "--no-messages", "--color=never"];
  args.push(job.caseSensitive === false ? "-i" : "-s");
  if (job.literal) args.push("-F");
  if (job.filesOnly) args.push("-m", "1");
  // A file named directly is searched whole, NUL bytes and all (as the js engine does, and as ripgrep's
  // JSON printer showed it); ripgrep's standard printer would print "binary file matches" instead.
  if (isFile) args.push("--text");
  let ignoreFile: string | undefined;
  const positiveGlobs = (job.globs ?? []).some((g) => g !== "" && !g.startsWith("!"));
  // includeIgnored: no rules, `.git` still skipped (the walker's IgnoreStack without rules).
  const rules = job.gitignore && job.includeIgnored !== true;
  if (rules) {
    args.push("--no-ignore-global", "--no-ignore-dot", "--no-ignore-parent", "--no-require-git");
    const above = isFile ? [] : rebaseRules(ancestorLevels(root, start));
    if (above.length > 0) {
      ignoreFile = path.join(os.tmpdir(), `mcpfs-rg-${randomBytes(8).toString("hex")}.ignore`);
      fs.writeFileSync(ignoreFile, `${above.join("\n")}\n`, { flag: "wx", mode: 0o600 });
      args.push("--ignore-file", ignoreFile);
    }
  } else {
    args.push("--no-ignore");
  }
  for (const g of anchorGlobs(job.globs ?? [], isFile ? "" : startRel)) args.push("-g", g);
  // On a case-insensitive volume rules and the fixed exclusions fold case, as the walker's (namesOf).
  const folds = namesOf(root).foldsCase;
  if (folds && rules) args.push("--ignore-file-case-insensitive");
  const fixed = folds ? "--iglob" : "-g";
  args.push(fixed, "!.mcpfs-????????????????.tmp");
  if (job.gitignore) args.push(fixed, "!.git");
  args.push("-e", job.pattern, "--", startRel === "" ? "." : startRel);
  // A positive -g glob overrides gitignore in ripgrep; such hits are re-checked against the rules (or,
  // with includeIgnored, against the `.git` skip alone).
  const inGit = (rel: string) => hasGitDirSegment(rel, folds);
  const oracle =
    !job.gitignore || isFile ? undefined : rules ? lazy(() => createIgnoreOracle(root, start)) : () => inGit;
  const globs = lazy(() => compileGlobs(job.globs));
  const strip = isFile ? "" : startRel === "" ? "./" : `${startRel}/`;
  const toRel = (p: string) =>
    isFile ? path.basename(start) : p.startsWith(strip) ? p.slice(strip.length) : p;
  const fromRoot = (rel: string) => (isFile || startRel === "" ? rel : `${startRel}/${rel}`);
  const refused = (rel: string, afterWarning: boolean): boolean => {
    if (!isFile && root.deny?.denies(fromRoot(rel), folds)) return true;
    if (afterWarning) return !walkerSearches(rel, root, oracle?.(), globs());
    // ripgrep neither compares names in NFC nor knows the start-up rules a change replaced (ignore.ts).
    const recheck = positiveGlobs || NON_ASCII.test(rel) || root.startRules?.touched === true;
    return recheck && (oracle?.()(rel, false) ?? false);
  };

  try {
    return await run(rgPath, args, root.real, job, toRel, refused);
  } finally {
    if (ignoreFile) fs.rmSync(ignoreFile, { force: true });
  }
}

const NON_ASCII = /[^\x00-\x7f]/;

const lazy = <T>(make: () => T): (() => T) => {
  let made: { v: T } | undefined;
  return () => {
    made ??= { v: make() };
    return made.v;
  };
};

/**
 * Whether the walker would search `rel` (relative to the start), for a path read after a binary-file
 * warning (see rgRecords): one that ripgrep did not name must not be searched by mistake.
 */
function walkerSearches(
  rel: string,
  root: EngineJob["root"],
  ignored: ((rel: string, isDir: boolean) => boolean) | undefined,
  globs: ReturnType<typeof compileGlobs>,
): boolean {
  const names = rel.split("/");
  if (names.some((n) => n === "" || n === "." || n === ".." || isTempName(n, root))) return false;
  if (ignored?.(rel, false)) return false;
  if (!globs) return true;
  for (let i = 1; i < names.length; i++) if (globs.prunes(names.slice(0, i).join("/"))) return false;
  return globs.file(rel);
}

/** Runs ripgrep and collects the lines it names, file by file, up to the job's collection cap. */
function run(
  rgPath: string,
  args: string[],
  cwd: string,
  job: EngineJob,
  toRel: (p: string) => string,
  refused: (rel: string, afterWarning: boolean) => boolean,
): Promise<RawGrep<Hit>> {
  return new Promise<RawGrep<Hit>>((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const hits: Hit[] = [];
    const files: string[] = [];
    let capped = false;
    let stderr = "";
    let settled = false;
    // ripgrep prints a file's lines together: a new path ends the previous file.
    let current: { printed: string; rel: string; skip: boolean; lines: number[] } | undefined;

    const stop = () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    };
    const onAbort = () => {
      stop();
      settle(new ToolError("cancelled", {}));
    };
    job.signal?.addEventListener("abort", onAbort, { once: true });
    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      job.signal?.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve({ matches: hits, files, capped });
    };
    // A cancel that landed while the engine was being picked fires no event: stop at once.
    if (job.signal?.aborted) onAbort();

    const endFile = () => {
      if (!current) return;
      if (!current.skip && current.lines.length > 0) {
        files.push(current.rel);
        for (const line of current.lines) hits.push({ path: current.rel, line });
        const count = job.filesOnly ? files.length : hits.length;
        if (count >= job.collectCap) {
          capped = true;
          stop();
        }
      }
      current = undefined;
    };

    rgRecords(child.stdout, (printed, line, afterWarning) => {
      if (capped || settled) return;
      if (current?.printed !== printed) {
        endFile();
        if (capped) return;
        const rel = toRel(printed);
        current = { printed, rel, skip: refused(rel, afterWarning), lines: [] };
      }
      if (current.lines[current.lines.length - 1] !== line) current.lines.push(line);
    });
    child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 4096) stderr += b.toString();
    });
    child.on("error", (err) => settle(new ToolError("io", { reason: "search_start", cause: err.message })));
    child.on("close", (code) => {
      if (settled) return;
      endFile();
      if (capped || code === 0 || code === 1) return settle();
      // Exit 2 also reports unreadable files (silenced by --no-messages); only a bad pattern is an error.
      const bad = rgError(stderr);
      settle(
        bad === undefined ? undefined : new ToolError("invalid", { reason: "regex_invalid", cause: bad }),
      );
    });
  });
}

/** ripgrep's own account of a bad pattern (it names no path), or undefined. */
function rgError(stderr: string): string | undefined {
  const text = stderr.trim();
  if (!/regex parse error|error parsing regex|syntax error|compiled regex exceeds/i.test(text))
    return undefined;
  // ripgrep quotes the pattern (up to 64 KiB) between its first line and the last, which says what is wrong.
  const lines = lfPieces(text.replace(/^rg: /, ""));
  const said = lines.length > 2 ? `${lines[0]} ${lines.at(-1)!.trim()}` : lines.join("\n");
  return clipped(said);
}
