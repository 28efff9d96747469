import fsp from "node:fs/promises";
import path from "node:path";
import { ToolError } from "./errors.js";
import { createIgnoreOracle, isGitIgnored, readRulesSync } from "./ignore.js";
import { namesOf, type PathRules, type ResolvedPath } from "./root.js";

export function ignoredError(shown: string): ToolError {
  return new ToolError("ignored", { path: shown });
}

function carriesError(shown: string): ToolError {
  return new ToolError("ignored", { reason: "holds_hidden", path: shown });
}

export function gitDirWriteError(shown: string): ToolError {
  return new ToolError("denied", { reason: "git_dir_write", path: shown });
}

/**
 * The read gate of a resolved path: under `hideIgnored`, anything under `.git/` or ignored by a `.gitignore`
 * (root and nested) or `.git/info/exclude` is refused. `isDir: "either"` when the kind is not known.
 */
export async function gateIgnored(
  rules: PathRules,
  target: ResolvedPath,
  shown: string,
  isDir: boolean | "either",
): Promise<void> {
  if (!rules.hideIgnored || target.relative === "") return;
  const ignored =
    isDir === "either"
      ? isGitIgnored(target.root, target.relative, false) || isGitIgnored(target.root, target.relative, true)
      : isGitIgnored(target.root, target.relative, isDir);
  if (ignored) throw ignoredError(shown);
}

/** Whether listings of this connection leave out ignored entries (`--no-gitignore` cannot lift the policy). */
export function listsSkipIgnored(rules: PathRules, gitignoreFlag: boolean): boolean {
  return rules.hideIgnored || gitignoreFlag;
}

/**
 * What a change to `target` must leave intact, checked before it happens (`Workspace` calls it for every
 * path resolved with write intent). The start-up ignore rules the change could alter are remembered first
 * (see rule-memory.ts): a new place had none, a rules file holds what it holds now. A move or delete of a
 * folder (`carries`) is refused when the folder holds a `--deny`ed entry or, under `hideIgnored`, an ignored
 * one or a `.git`: moved, the entry could land where no rule matches it (`config/master.key` moved to
 * `config2/`); deleted, it would change past the rule.
 */
export async function gateChange(
  rules: PathRules,
  target: ResolvedPath,
  shown: string,
  carries: boolean,
): Promise<void> {
  const { root } = target;
  const memory = root.startRules;
  const rulesFile = namesOf(root).equal(path.basename(target.real), ".gitignore");
  if (memory && !target.exists) {
    memory.markNew(target.real);
    // A new rules file may re-include (`!name`) what the start-up rules ignore.
    if (rulesFile) memory.touch();
  } else if (memory && rulesFile) memory.remember(target.real, readRulesSync(target.real));
  if (carries && target.exists) await gateCarried(rules, target, shown);
}

/**
 * Refuses a move, copy or delete of a folder that holds an entry out of reach (see `gateChange`); reads the
 * folder's rules files on the way, so the start-up rules remember them before the change.
 */
export async function gateCarried(rules: PathRules, target: ResolvedPath, shown: string): Promise<void> {
  const { root } = target;
  if (!rules.hideIgnored && !root.deny) return;
  const st = await fsp.lstat(target.real).catch(() => undefined);
  if (!st?.isDirectory()) return;
  root.startRules?.touch();
  const folds = namesOf(root).foldsCase;
  const ignored = rules.hideIgnored ? createIgnoreOracle(root, target.real) : undefined;
  const base = target.relative === "" ? "" : `${target.relative}/`;
  const pending = [""];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const list = await fsp.readdir(path.join(target.real, dir), { withFileTypes: true }).catch(() => []);
    for (const d of list) {
      const rel = dir === "" ? d.name : `${dir}/${d.name}`;
      const isDir = d.isDirectory();
      if (root.deny?.deniesEntry(base + rel, folds) || ignored?.(rel, isDir)) throw carriesError(shown);
      if (isDir) pending.push(rel);
    }
  }
}
