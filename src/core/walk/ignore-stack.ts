import type { Dirent } from "node:fs";
import path from "node:path";
import { ancestorLevels, type IgnoreLevel, isIgnoredBy, levelsForDir } from "../ignore.js";
import { isGitDirName } from "../paths.js";
import { namesOf, type Root } from "../workspace.js";

/**
 * The gitignore rules in force during one walk: the levels above the start, one more level for each
 * folder the walk lists that holds a `.gitignore` or a `.git` (see `ignore.ts` for the precedence), and
 * the `.git` folders themselves, which a gitignore-honouring walk never shows. Without `gitignore` the
 * stack is empty and keeps everything; without `rules` it only hides `.git` (what `rg --no-ignore` skips).
 */
export class IgnoreStack {
  /** The levels of the folders between the root and the start (the start's own rules come from its listing). */
  readonly atStart: readonly IgnoreLevel[];
  /** The .gitignore rules apply (else only `.git` is hidden). */
  private readonly rules: boolean;
  /** On a case-insensitive volume `.GIT` is the repository and `.GITIGNORE` its rules. */
  private readonly folds: boolean;

  constructor(
    private readonly root: Root,
    start: string,
    private readonly gitignore: boolean,
    applyRules = true,
  ) {
    this.rules = gitignore && applyRules;
    this.atStart = this.rules ? ancestorLevels(root, start) : [];
    this.folds = namesOf(root).foldsCase;
  }

  /** The levels for the entries of a folder the walk listed (`inherited` when it adds no rules). */
  enter(
    inherited: readonly IgnoreLevel[],
    dirAbs: string,
    dirRel: string,
    list: readonly Dirent[],
  ): readonly IgnoreLevel[] {
    if (!this.rules) return inherited;
    const folds = this.folds;
    let hasGitignore = false;
    let hasGit = false;
    for (const d of list) {
      if (d.name === ".gitignore" || (folds && d.name.toLowerCase() === ".gitignore")) hasGitignore = true;
      else if (isGitDirName(d.name, folds)) hasGit = true;
    }
    // A folder whose start-up .gitignore a change removed keeps its rules (see rule-memory.ts).
    const memory = this.root.startRules;
    if (!hasGitignore && !hasGit && !memory?.hadRulesIn(dirAbs)) return inherited;
    const fromRoot = path.relative(this.root.real, dirAbs).split(path.sep).join("/");
    return levelsForDir(inherited, dirAbs, dirRel, fromRoot, hasGitignore, hasGit, folds, memory);
  }

  /** A `.git` folder, which the walk neither shows nor enters. */
  hides(name: string): boolean {
    return this.gitignore && isGitDirName(name, this.folds);
  }

  /** The entry `rel` (relative to the start) is ignored by `levels`, its folder already kept. */
  ignores(levels: readonly IgnoreLevel[], rel: string, isDir: boolean): boolean {
    return levels.length > 0 && isIgnoredBy(levels, rel, isDir);
  }
}
