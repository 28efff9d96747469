import fs from "node:fs";
import fsp from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { Ignore } from "ignore";
import { readRegularText, readRegularTextSync } from "./files/safe-open.js";
import { compiledRules } from "./ignore-compiled.js";
import { isGitDirName } from "./paths.js";
import { namesOf, type Root } from "./workspace.js";

/**
 * gitignore rules as git applies them: the root `.gitignore`, every nested one (deeper files win), and
 * `.git/info/exclude` (lowest precedence). A directory holding its own `.git` adds its own
 * `.git/info/exclude`; the rules above it keep applying, as ripgrep applies them (so both grep engines and
 * every listing agree with `rg`). Each path is judged by its own name against each level, never by its
 * parents' (a folder the walk entered was already kept): a folder one level ignores and a deeper level
 * re-includes has its entries judged on their own, as git and ripgrep do. Files are read only inside the root.
 */

// Loaded on first use (a walk that meets a .gitignore), so server start-up does not pay for it.
const requireLazy = createRequire(import.meta.url);
/** `ignorecase` as git's `core.ignorecase`: rules fold case exactly where the volume does. */
function newIgnore(ignorecase: boolean): Ignore {
  const factory = requireLazy("ignore") as (opts: {
    allowRelativePaths: boolean;
    ignorecase: boolean;
  }) => Ignore;
  return factory({ allowRelativePaths: true, ignorecase });
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
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "" && !l.startsWith("#"));
}

function readRulesSync(file: string): string[] | undefined {
  try {
    return ruleLines(readRegularTextSync(file));
  } catch {
    return undefined;
  }
}

async function readRules(file: string): Promise<string[] | undefined> {
  try {
    return ruleLines(await readRegularText(file));
  } catch {
    return undefined;
  }
}

function makeLevel(
  lines: string[],
  prefix: string,
  strip: number,
  dirFromRoot: string,
  foldsCase: boolean,
): IgnoreLevel {
  const ig = newIgnore(foldsCase).add(lines);
  return { ig, prefix, strip, lines, dirFromRoot, own: ownRules(ig) };
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
): readonly IgnoreLevel[] {
  if (!hasGitignore && !hasGit) return inherited;
  const strip = relFromStart === "" ? 0 : relFromStart.length + 1;
  const out: IgnoreLevel[] = [...inherited];
  if (hasGit) {
    const ex = readRulesSync(path.join(dirReal, ".git", "info", "exclude"));
    if (ex && ex.length > 0) out.push(makeLevel(ex, "", strip, dirFromRoot, foldsCase));
  }
  if (hasGitignore) {
    const gi = readRulesSync(path.join(dirReal, ".gitignore"));
    if (gi && gi.length > 0) out.push(makeLevel(gi, "", strip, dirFromRoot, foldsCase));
  }
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
    const prefix = `${segs.slice(i).join("/")}/`;
    const ex = readRulesSync(path.join(dir, ".git", "info", "exclude"));
    if (ex && ex.length > 0) levels.push(makeLevel(ex, prefix, 0, dirFromRoot, folds));
    const gi = readRulesSync(path.join(dir, ".gitignore"));
    if (gi && gi.length > 0) levels.push(makeLevel(gi, prefix, 0, dirFromRoot, folds));
  }
  return levels;
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
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
  let ignored = false;
  for (const lv of levels) {
    const sub = lv.prefix + (lv.strip === 0 ? rel : rel.slice(lv.strip));
    const r = lv.own(isDir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * True when `rel` (relative to root.real, "/" separators) is under `.git/` or ignored by the root
 * `.gitignore`, any nested `.gitignore` on its path, or `.git/info/exclude`. A path inside an ignored
 * directory is ignored (git cannot re-include below an excluded directory).
 */
export async function isGitIgnored(root: Root, rel: string, isDir: boolean): Promise<boolean> {
  const segs = rel.split("/").filter((s) => s !== "" && s !== ".");
  const folds = namesOf(root).foldsCase;
  if (segs.some((s) => isGitDirName(s, folds))) return true;
  const levels: IgnoreLevel[] = [];
  for (let i = 0; i < segs.length; i++) {
    const dirRel = segs.slice(0, i).join("/");
    const dir = path.join(root.real, ...segs.slice(0, i));
    const strip = i === 0 ? 0 : dirRel.length + 1;
    const [hasGit, ex, gi] = await Promise.all([
      fsp.lstat(path.join(dir, ".git")).then(
        () => true,
        () => false,
      ),
      readRules(path.join(dir, ".git", "info", "exclude")),
      readRules(path.join(dir, ".gitignore")),
    ]);
    if (hasGit && ex && ex.length > 0) levels.push(makeLevel(ex, "", strip, dirRel, folds));
    if (gi && gi.length > 0) levels.push(makeLevel(gi, "", strip, dirRel, folds));
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
