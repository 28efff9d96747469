import path from "node:path";
import { ToolError } from "../errors.js";
import { readRules } from "../ignore.js";
import { namesOf, type Root } from "../root.js";
import type { GitCommand, ParsedArgs } from "./commands.js";
import type { GitRepository } from "./repository-gate.js";
import { runGit } from "./runner.js";

/**
 * What the read-only git tool leaves out of git's output: the paths the server's rules hide (`--deny`, see
 * deny-paths.ts, and on the workspace surface the ignore gate) that git itself would print. Commands that
 * take pathspecs get one exclude pathspec per rule, so status, ls-files, log (`--name-only`, `--stat`, `-p`),
 * diff and show never name such a path, whatever their output format.
 *
 * git applies the repository's ignore rules itself, except where the gate judges otherwise: it compares
 * names as bytes (on Linux; `core.precomposeUnicode` acts on macOS only), where the gate compares them in
 * NFC, so a rule holding a non-ASCII character is given in both forms; and it reads the rules as they are
 * now, where the gate also holds the rules at start-up (see rule-memory.ts), so once a rules file was
 * changed every start-up rule is given as well.
 */

/** Commands whose pathspecs take magic, and that print paths or contents. */
const EXCLUDING: readonly GitCommand[] = ["log", "diff", "show", "status", "ls_files"];

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
    throw new ToolError(
      "git log --follow is refused while the server hides paths from git (--deny rules, or ignore rules git does not apply itself): it takes one pathspec only, so hidden paths could not be excluded.",
      "ignored",
    );
  parsed.pathspec = [...parsed.pathspec, ...excludes];
}

/** Whether a command gets exclude pathspecs (and so needs them worked out). */
export function takesExcludes(cmd: GitCommand): boolean {
  return EXCLUDING.includes(cmd);
}

/**
 * The exclude pathspecs of the ignore gate's rules that git would not apply itself (see the header): every
 * rule holding a non-ASCII character, of the `.gitignore` files git sees and `.git/info/exclude`, and once a
 * rules file changed since start, every rule the files held at start.
 */
export async function ignoreExcludes(repo: GitRepository, signal?: AbortSignal): Promise<string[]> {
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
    const lines = (await readRules(file)) ?? [];
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
