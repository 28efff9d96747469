import path from "node:path";
import { ToolError } from "../errors.js";
import { readRules } from "../ignore.js";
import { namesOf, type Root } from "../root.js";
import type { GitCommand, ParsedArgs } from "./commands.js";
import type { GitRepository } from "./repository-gate.js";
import { runGit } from "./runner.js";

/**
 * What the read-only git tool leaves out of git's output: the paths the server's rules hide that git itself
 * would print. Rules reach git as exclude pathspecs, so no output format (`--name-only`, `--stat`, `-p`,
 * porcelain) names such a path. `--deny` rules (deny-paths.ts) apply to every command that takes pathspecs.
 *
 * The ignore gate (workspace surface) applies where git applies ignore rules: to the untracked files that
 * `status` and `ls-files` list (what a commit holds git shows whatever the rules say, as it always did). There
 * they never list an ignored path: `--ignored` is dropped with a warning, `ls-files --others` gets
 * `--exclude-standard`, and the gate's rules that git does not apply itself become exclude pathspecs: git
 * compares names as bytes (on Linux; `core.precomposeUnicode` acts on macOS only) where the gate compares them
 * in NFC, so a rule holding a non-ASCII character is given in both forms; and git reads the rules as they are
 * now where the gate also holds the rules at start-up (rule-memory.ts), so once a rules file changed (or a
 * new one was placed) every start-up rule is given as well.
 */

/** Commands whose pathspecs take magic, and that print paths or contents. */
const EXCLUDING: readonly GitCommand[] = ["log", "diff", "show", "status", "ls_files"];

/** Commands that list untracked files, judged by ignore rules. */
const LISTING_UNTRACKED: readonly GitCommand[] = ["status", "ls_files"];

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Exclude pathspecs for a glob (git's `glob` magic: `*`, `?`, `[…]`, `**`), relative to the repository root:
 * the path, unless `below` only, and what lies below it, each in every Unicode form the glob has (git
 * compares bytes: a name stored composed or decomposed needs the rule in that form too).
 */
export function excludeForms(glob: string, folds: boolean, below = false): string[] {
  const magic = folds ? "exclude,glob,icase" : "exclude,glob";
  const out: string[] = [];
  for (const form of new Set([glob, glob.normalize("NFC"), glob.normalize("NFD")])) {
    if (!below) out.push(`:(${magic})${form}`);
    out.push(`:(${magic})${form}/**`);
  }
  return out;
}

/**
 * Appends `excludes` to a parsed call's pathspecs when its command takes them.
 * @throws ToolError `ignored` for `log --follow` while paths are excluded (it takes one pathspec only).
 */
export function applyExcludes(cmd: GitCommand, parsed: ParsedArgs, excludes: readonly string[]): void {
  if (excludes.length === 0 || !EXCLUDING.includes(cmd)) return;
  if (cmd === "log" && parsed.flagNames.has("--follow"))
    throw new ToolError("ignored", { reason: "git_deny_follow" });
  parsed.pathspec = [...parsed.pathspec, ...excludes];
}

/** Whether `status` or `ls-files` lists untracked files here, judged by the ignore gate's rules. */
export function listsUntracked(cmd: GitCommand, hideIgnored: boolean | undefined): boolean {
  return hideIgnored === true && LISTING_UNTRACKED.includes(cmd);
}

/**
 * `status` and `ls-files` under the ignore gate list no ignored path: `--ignored` (`-i`) is dropped and
 * `ls-files --others` gets `--exclude-standard`. Returns the warning for a dropped flag.
 */
export function withoutIgnored(cmd: GitCommand, parsed: ParsedArgs): string | undefined {
  const kept: string[] = [];
  let dropped = false;
  for (let i = 0; i < parsed.flags.length; i++) {
    const f = parsed.flags[i]!;
    // A value of `-x`/`--exclude` is a pattern, kept with its flag.
    if ((f === "-x" || f === "--exclude") && i + 1 < parsed.flags.length) {
      kept.push(f, parsed.flags[++i]!);
      continue;
    }
    const ignored = f === "--ignored" || f.startsWith("--ignored=") || (cmd === "ls_files" && f === "-i");
    if (ignored) dropped = true;
    else kept.push(f);
  }
  parsed.flags = kept;
  parsed.flagNames.delete("--ignored");
  parsed.flagNames.delete("-i");
  const others = parsed.flagNames.has("--others") || parsed.flagNames.has("-o");
  if (cmd === "ls_files" && others && !parsed.flagNames.has("--exclude-standard")) {
    parsed.flags.push("--exclude-standard");
    parsed.flagNames.add("--exclude-standard");
  }
  return dropped
    ? `⚠ '--ignored' is not supported for git ${cmd} in this project (ignored paths are out of reach) and was ignored.`
    : undefined;
}

/**
 * The ignore gate's exclude pathspecs that a `status` or `ls-files` run needs, given what it printed: none
 * (its output stands) unless the rules changed since start or the output holds a non-ASCII character, as
 * every name whose Unicode forms differ does (so an ordinary run costs no second git).
 */
export async function excludesAfter(
  repo: GitRepository,
  output: string,
  signal?: AbortSignal,
): Promise<string[]> {
  if (!repo.root.startRules?.touched && !NON_ASCII.test(output)) return [];
  return ignoreExcludes(repo, signal);
}

/**
 * The exclude pathspecs of the ignore gate's rules that git would not apply itself (see the header): every
 * rule holding a non-ASCII character, of the `.gitignore` files git sees and `.git/info/exclude`, and once a
 * rules file changed since start, every rule the files held at start.
 */
async function ignoreExcludes(repo: GitRepository, signal?: AbortSignal): Promise<string[]> {
  const root = repo.root;
  const folds = namesOf(root).foldsCase;
  const out: string[] = [];
  const found = await runGit(
    repo,
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ":(glob)**/.gitignore"],
    { signal, timeoutMs: 15_000 },
  );
  const files = new Set(found.code === 0 ? found.stdout.split("\0").filter((f) => f !== "") : []);
  const now: [string, string][] = [...files].map((f) => [path.posix.dirname(f), path.join(root.real, f)]);
  now.push(["", path.join(root.real, ".git", "info", "exclude")]);
  for (const [dir, file] of now) {
    const lines = readRules(root, file) ?? [];
    for (const line of lines) if (NON_ASCII.test(line)) out.push(...ruleExcludes(dir, line, folds));
  }
  for (const [dir, lines] of startRules(root))
    for (const line of lines) out.push(...ruleExcludes(dir, line, folds));
  return [...new Set(out)];
}

/** The start-up rules of the rules files remembered, by folder from the root, once any may have changed. */
function startRules(root: Root): [string, readonly string[]][] {
  const memory = root.startRules;
  if (!memory?.touched) return [];
  const base = namesOf(root).fold(root.real.normalize("NFC"));
  const out: [string, readonly string[]][] = [];
  for (const [file, lines] of memory.startFiles()) {
    const exclude = [".git", "info", "exclude"].join(path.sep);
    const dir = file.endsWith(path.sep + exclude) ? file.slice(0, -exclude.length - 1) : path.dirname(file);
    const rel = path.relative(base, dir);
    if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
    out.push([rel.split(path.sep).join("/"), lines]);
  }
  return out;
}

/**
 * One gitignore rule of the rules file in folder `dir` ("" for the root) as exclude pathspecs: none for a
 * negation (a pathspec cannot re-include); a rule without an inner `/` matches at any depth below `dir`, one
 * with it is anchored there; a rule ending in `/` matches folders only, so only what lies below is excluded.
 * gitignore and `glob` pathspecs share git's wildmatch, so the pattern itself passes unchanged.
 */
function ruleExcludes(dir: string, line: string, folds: boolean): string[] {
  if (line.startsWith("!")) return [];
  // Trailing spaces do not count unless escaped with a backslash.
  let body = line.replace(/(?<!\\) +$/, "");
  const folderOnly = body.endsWith("/");
  body = body.replace(/\/+$/, "");
  if (body === "") return [];
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  const rel = anchored ? body : `**/${body}`;
  const at = dir === "" || dir === "." ? rel : `${dir.replace(/[\\*?[]/g, "\\$&")}/${rel}`;
  return excludeForms(at, folds, folderOnly);
}
