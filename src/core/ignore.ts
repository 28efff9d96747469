import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { readRegularText, readRegularTextSync } from "./fs/safe-open.js";
import { compiledRules } from "./ignore-compiled.js";
import { isGitDirName } from "./paths.js";
import { namesOf, type Root } from "./root.js";
import type { RuleMemory } from "./rule-memory.js";
import { lfPieces, toLf } from "./text/lines.js";

/**
 * gitignore rules as git applies them: the root `.gitignore`, every nested one (deeper files win), and
 * `.git/info/exclude` (lowest precedence). A directory holding its own `.git` adds its own
 * `.git/info/exclude`; the rules above it keep applying, as ripgrep applies them (so both grep engines and
 * every listing agree with `rg`). Each path is judged by its own name against each level, never by its
 * parents' (a folder the walk entered was already kept): a folder one level ignores and a deeper level
 * re-includes has its entries judged on their own, as git and ripgrep do. Files are read only inside the root.
 *
 * Names and rules compare in NFC, as git does on macOS with `core.precomposeUnicode` (a name Finder stored
 * decomposed still matches a rule typed composed). Where the root remembers its start-up rules
 * (`Root.startRules`, see rule-memory.ts), a path is ignored when the rules now or the rules at start say so.
 */

/**
 * `ignorecase` as git's `core.ignorecase`: rules fold case exactly where the volume does. Imported statically
 * so the bundle holds it (the installed package has no devDependencies); it costs start-up no measurable time.
 */
function newIgnore(ignorecase: boolean): Ignore {
  return ignore({ allowRelativePaths: true, ignorecase });
}

/** The rules of one directory, and how to turn a walk-relative path into a path relative to that directory. */
export interface IgnoreLevel {
  readonly ig: Ignore;
  /** Prepended to the tail of the walk-relative path (non-empty for directories above the walk's start). */
  readonly prefix: string;
  /** Characters of the walk-relative path to drop (the level's own directory plus "/"). */
  readonly strip: number;
  /** The raw rule lines, kept for engines that need them in text form (ripgrep's --ignore-file). */
  readonly lines: readonly string[];
  /** Directory of the rules, relative to the root ("" for the root). */
  readonly dirFromRoot: string;
  /**
   * This level's rules alone on one path, its parent directories not consulted (a walk that never enters
   * an ignored directory already knows them): what `ig.test` answers, minus its per-path cache and the
   * parent recursion that were most of a walk's time.
   */
  readonly own: (path: string) => IgnoreVerdict;
  /** The same for the rules this file held at start, when they differ from what it holds now. */
  readonly ownStart?: (path: string) => IgnoreVerdict;
}

export interface IgnoreVerdict {
  readonly ignored: boolean;
  readonly unignored: boolean;
}

const IGNORED: IgnoreVerdict = { ignored: true, unignored: false };
const UNIGNORED: IgnoreVerdict = { ignored: false, unignored: true };
const NO_MATCH: IgnoreVerdict = { ignored: false, unignored: false };

/**
 * The scan `ignore` runs once the parents are cleared: the last rule whose regex matches decides. Done
 * here over its compiled rules so a walk allocates nothing per test (the library builds a result object
 * for every path, a third of a whole-tree walk's garbage).
 */
function ownRules(ig: Ignore): (path: string) => IgnoreVerdict {
  const list = compiledRules(ig);
  if (list) {
    return (p) => {
      for (let i = list.length - 1; i >= 0; i--) {
        const rule = list[i]!;
        if (rule.regex.test(p)) return rule.negative ? UNIGNORED : IGNORED;
      }
      return NO_MATCH;
    };
  }
  // Another `ignore` build: the public test, whose parent check is then merely redundant.
  return (p) => ig.test(p);
}

/** Parses gitignore text into rule lines (comments and blanks dropped; ignore() does the rest). */
export function ruleLines(text: string): string[] {
  return lfPieces(toLf(text.replace(/^\uFEFF/, ""))).filter((l) => l.trim() !== "" && !l.startsWith("#"));
}

const NON_ASCII = /[^\x00-\x7f]/;

function nfc(lines: readonly string[]): string[] {
  return lines.map((l) => (NON_ASCII.test(l) ? l.normalize("NFC") : l));
}

/**
 * Over this size a rules file is not read: every path below its folder counts as ignored instead, but the
 * .gitignore itself, so it can be seen and cut down. Failing closed hides, never reveals; compiling it would
 * hold every call (a 5 MB .gitignore of 200,000 rules took 7.6 s, and an agent may write one); no
 * .gitignore in use comes near.
 */
const RULES_FILE_MAX_BYTES = 256 * 1024;
const OVERSIZE_RULES: readonly string[] = ["*", "!.gitignore"];

/** Lines of a rules file's text, or the rule that ignores everything for one over the size limit. */
const linesOf = (text: string | undefined): string[] =>
  text === undefined ? [...OVERSIZE_RULES] : ruleLines(text);

/** The rule lines of a rules file now (undefined: absent, unreadable or not a regular file). */
export function readRulesSync(file: string): string[] | undefined {
  try {
    // A symlinked rules file is not read, as git (2.32+) does not: editing its target would change the rules.
    if (fs.lstatSync(file).isSymbolicLink()) return undefined;
    return linesOf(readRegularTextSync(file, RULES_FILE_MAX_BYTES));
  } catch {
    return undefined;
  }
}

/** `readRulesSync` for the per-path gate: the rules file of `root` at `file`, through the verified open. */
export function readRules(root: Root, file: string): string[] | undefined {
  try {
    // Most folders have no rules file: one status call says so without the cost of a failed open's errors.
    const st = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (!st?.isFile()) return undefined;
    const read = () => linesOf(readRegularText(root, file, RULES_FILE_MAX_BYTES));
    if (!root.startRules) return read();
    const status = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    return root.startRules.readOnce(file, status, read);
  } catch {
    // Absent, unreadable, a symlink or not a regular file: no rules, as git reads it.
    return undefined;
  }
}

function makeLevel(
  lines: string[],
  start: readonly string[] | undefined,
  where: { prefix: string; strip: number; dirFromRoot: string; folds: boolean },
  memory: RuleMemory | undefined,
): IgnoreLevel {
  const { prefix, strip, dirFromRoot, folds } = where;
  const { ig, own } = compiled(lines, folds, memory);
  const level = { ig, prefix, strip, lines, dirFromRoot, own };
  if (start === lines || sameLines(start ?? [], lines)) return level;
  return { ...level, ownStart: compiled(start ?? [], folds, memory).own };
}

/**
 * Rule lines compiled to their matcher; the same text compiles once per root that keeps a rule memory
 * (`RuleMemory.compiled`): the workspace gate judges every path a call names against the rules files on
 * its way, read again each time, and compiling them was a tenth of a small read's CPU.
 */
function compiled(
  lines: readonly string[],
  folds: boolean,
  memory: RuleMemory | undefined,
): { ig: Ignore; own: (path: string) => IgnoreVerdict } {
  const make = () => {
    const ig = newIgnore(folds).add(nfc(lines));
    return { ig, own: ownRules(ig) };
  };
  return memory ? memory.compiled(lines, make) : make();
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((l, i) => l === b[i]);
}

/**
 * The level of one rules file read now (`now` undefined: absent), with what it held at start when the root
 * remembers that; undefined when neither holds a rule.
 */
function levelOf(
  file: string,
  now: string[] | undefined,
  memory: RuleMemory | undefined,
  where: { prefix: string; strip: number; dirFromRoot: string; folds: boolean },
): IgnoreLevel | undefined {
  const start = memory ? memory.startOf(file, now) : now;
  if (!now?.length && !start?.length) return undefined;
  return makeLevel(now ?? [], start, where, memory);
}

/**
 * The levels contributed by one directory the walk lists: `.git/info/exclude` (when it holds `.git`) then
 * `.gitignore`. `names` are the directory's entry names (so no extra stat is needed to know what exists).
 * Returns the new level list for the directory's children.
 */
export function levelsForDir(
  inherited: readonly IgnoreLevel[],
  dirReal: string,
  relFromStart: string,
  dirFromRoot: string,
  hasGitignore: boolean,
  hasGit: boolean,
  /** The root's name policy folds case (see `namesOf`). */
  foldsCase = false,
  /** The root's start-up rules (`Root.startRules`), on the workspace surface. */
  memory?: RuleMemory,
): readonly IgnoreLevel[] {
  const gitignore = hasGitignore || memory?.hadRulesIn(dirReal) === true;
  if (!gitignore && !hasGit) return inherited;
  const where = {
    prefix: "",
    strip: relFromStart === "" ? 0 : relFromStart.length + 1,
    dirFromRoot,
    folds: foldsCase,
  };
  const out: IgnoreLevel[] = [...inherited];
  const add = (file: string) => {
    const lv = levelOf(file, readRulesSync(file), memory, where);
    if (lv) out.push(lv);
  };
  if (hasGit) add(path.join(dirReal, ".git", "info", "exclude"));
  if (gitignore) add(path.join(dirReal, ".gitignore"));
  return out;
}

/**
 * Levels from the directories between the root and the walk's start (the start itself excluded: the walk
 * reads it), so a walk of `root/src` still honours `root/.gitignore`.
 */
export function ancestorLevels(root: Root, start: string): IgnoreLevel[] {
  const rel = path.relative(root.real, start);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const segs = rel.split(path.sep);
  const folds = namesOf(root).foldsCase;
  const levels: IgnoreLevel[] = [];
  for (let i = 0; i < segs.length; i++) {
    const dirFromRoot = segs.slice(0, i).join("/");
    const dir = path.join(root.real, ...segs.slice(0, i));
    const where = { prefix: `${segs.slice(i).join("/")}/`, strip: 0, dirFromRoot, folds };
    for (const file of [path.join(dir, ".git", "info", "exclude"), path.join(dir, ".gitignore")]) {
      const lv = levelOf(file, readRulesSync(file), root.startRules, where);
      if (lv) levels.push(lv);
    }
  }
  return levels;
}

function exists(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Decides one entry against the levels that apply to its directory: the deepest level with a matching
 * rule wins (a negation there re-includes). `rel` is relative to the walk's start. The entry's own path
 * only: the caller has decided its folders already.
 */
export function isIgnoredBy(levels: readonly IgnoreLevel[], rel: string, isDir: boolean): boolean {
  let now = false;
  let start = false;
  const ascii = !NON_ASCII.test(rel);
  for (const lv of levels) {
    let sub = lv.prefix + (lv.strip === 0 ? rel : rel.slice(lv.strip));
    // Sliced first: `strip` counts the characters of the name as stored.
    if (!ascii || (lv.prefix !== "" && NON_ASCII.test(lv.prefix))) sub = sub.normalize("NFC");
    const key = isDir ? `${sub}/` : sub;
    const r = lv.own(key);
    if (r.ignored) now = true;
    else if (r.unignored) now = false;
    const s = lv.ownStart ? lv.ownStart(key) : r;
    if (s.ignored) start = true;
    else if (s.unignored) start = false;
  }
  return now || start;
}

/**
 * True when `rel` (relative to root.real, "/" separators) is under `.git/` or ignored by the root
 * `.gitignore`, any nested `.gitignore` on its path, or `.git/info/exclude`. A path inside an ignored
 * directory is ignored (git cannot re-include below an excluded directory).
 */
export function isGitIgnored(root: Root, rel: string, isDir: boolean): boolean {
  const segs = rel.split("/").filter((s) => s !== "" && s !== ".");
  const folds = namesOf(root).foldsCase;
  if (segs.some((s) => isGitDirName(s, folds))) return true;
  const levels: IgnoreLevel[] = [];
  for (let i = 0; i < segs.length; i++) {
    const dirRel = segs.slice(0, i).join("/");
    const dir = path.join(root.real, ...segs.slice(0, i));
    const where = { prefix: "", strip: i === 0 ? 0 : dirRel.length + 1, dirFromRoot: dirRel, folds };
    const exFile = path.join(dir, ".git", "info", "exclude");
    const giFile = path.join(dir, ".gitignore");
    // One metadata call (no exception when absent, as in most folders) before the exclude file is opened.
    const hasGit = exists(path.join(dir, ".git"));
    const ex = hasGit ? readRules(root, exFile) : undefined;
    const gi = readRules(root, giFile);
    const exLevel = hasGit ? levelOf(exFile, ex, root.startRules, where) : undefined;
    const giLevel = levelOf(giFile, gi, root.startRules, where);
    if (exLevel) levels.push(exLevel);
    if (giLevel) levels.push(giLevel);
    // Each directory on the way must itself not be ignored.
    const here = segs.slice(0, i + 1).join("/");
    const last = i === segs.length - 1;
    if (levels.length > 0 && isIgnoredBy(levels, here, last ? isDir : true)) return true;
  }
  return false;
}

/**
 * A per-call checker of start-relative paths against every level on their way (ancestors of the start
 * included), caching each directory's levels. For engines that cannot apply the rules while walking.
 */
export function createIgnoreOracle(root: Root, start: string): (rel: string, isDir: boolean) => boolean {
  const cache = new Map<string, { levels: readonly IgnoreLevel[]; ignored: boolean }>();
  const fromRoot = path.relative(root.real, start).split(path.sep).join("/");
  const folds = namesOf(root).foldsCase;
  const dirState = (rel: string): { levels: readonly IgnoreLevel[]; ignored: boolean } => {
    const hit = cache.get(rel);
    if (hit) return hit;
    let state: { levels: readonly IgnoreLevel[]; ignored: boolean };
    if (rel === "") {
      state = { levels: ancestorLevels(root, start), ignored: false };
    } else {
      const cut = rel.lastIndexOf("/");
      const parentRel = cut === -1 ? "" : rel.slice(0, cut);
      const parent = dirState(parentRel);
      const parentLevels = withOwnRules(parent.levels, parentRel);
      state = {
        levels: parentLevels,
        ignored:
          parent.ignored || isGitDirName(rel.split("/").pop(), folds) || isIgnoredBy(parentLevels, rel, true),
      };
    }
    cache.set(rel, state);
    return state;
  };
  // The levels that apply to the children of `dirRel` (its own .gitignore / .git added).
  const own = new Map<string, readonly IgnoreLevel[]>();
  const withOwnRules = (inherited: readonly IgnoreLevel[], dirRel: string): readonly IgnoreLevel[] => {
    const hit = own.get(dirRel);
    if (hit) return hit;
    const abs = dirRel === "" ? start : path.join(start, dirRel);
    const levels = levelsForDir(
      inherited,
      abs,
      dirRel,
      [fromRoot, dirRel].filter((s) => s !== "").join("/"),
      exists(path.join(abs, ".gitignore")),
      exists(path.join(abs, ".git")),
      folds,
      root.startRules,
    );
    own.set(dirRel, levels);
    return levels;
  };
  return (rel, isDir) => {
    const cut = rel.lastIndexOf("/");
    const parentRel = cut === -1 ? "" : rel.slice(0, cut);
    const parent = dirState(parentRel);
    if (parent.ignored) return true;
    if (isGitDirName(rel.split("/").pop(), folds)) return true;
    return isIgnoredBy(withOwnRules(parent.levels, parentRel), rel, isDir);
  };
}
