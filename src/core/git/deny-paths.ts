import type { DenyRules } from "../deny.js";
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";
import type { GitCommand, ParsedArgs } from "./commands.js";
import { excludeForms } from "./hidden-paths.js";
import type { GitRepository } from "./repository-gate.js";
import { runGit } from "./runner.js";

/**
 * `--deny` rules in the read-only git tool (see deny.ts). git reads its objects, not the files, so the rules
 * are applied to what it prints: commands that take pathspecs get one exclude pathspec per rule (a diff, a
 * patch, a status or a file list never shows a denied path), `show` refuses a `rev:path` naming a denied path
 * and any blob or tree object named otherwise (a blob's content, a tree's names), and `ls_tree`, whose
 * pathspecs take no magic, has its listing filtered. Globs reach git as `glob` pathspecs (`*`, `?`, `[…]`,
 * `**`; braces stay literal there).
 */
export interface GitDeny {
  rules: DenyRules;
  /** The repository's volume compares names without case. */
  folds: boolean;
}

/** The exclude pathspecs of the rules: a name at any depth, a path from the root, and what lies below each. */
export function excludePathspecs(deny: GitDeny): string[] {
  return deny.rules.globs.flatMap((g) => {
    const body = g.replace(/\/+$/, "");
    return excludeForms(body.startsWith("/") ? body.slice(1) : `**/${body}`, deny.folds);
  });
}

/**
 * Checks a `show` call's objects against the rules before it runs (its exclude pathspecs are the caller's,
 * see hidden-paths.ts).
 * @throws ToolError `ignored` for a `show` of a denied path, or of a blob or tree named by hash or ref.
 */
export async function checkDeniedObjects(
  cmd: GitCommand,
  parsed: ParsedArgs,
  deny: GitDeny,
  repo: GitRepository,
  signal?: AbortSignal,
): Promise<void> {
  if (cmd !== "show") return;
  const type = async (obj: string) => {
    const r = await runGit(repo, ["cat-file", "-t", obj], { signal, timeoutMs: 15_000 });
    return r.code === 0 ? r.stdout.trim() : "";
  };
  for (const p of parsed.positionals) {
    let t = await type(p);
    // A tag of a blob or a tree shows it.
    if (t === "tag") t = await type(`${p}^{}`);
    if (t !== "blob" && t !== "tree") continue;
    const path = objectPath(p);
    if (t === "tree" || path === undefined || deny.rules.denies(path, deny.folds)) throw refusal(p);
  }
}

function refusal(p: string): ToolError {
  return new ToolError("ignored", { reason: "git_deny_show", actual: p });
}

/** The plain path of `rev:path`, `:path` or `:n:path` (no `.`/`..` segment), else undefined. */
function objectPath(p: string): string | undefined {
  let path: string;
  if (/^:[0-3]:/.test(p)) path = p.slice(3);
  else if (p.startsWith(":")) path = p.slice(1);
  else if (p.includes(":")) path = p.slice(p.indexOf(":") + 1);
  else return undefined;
  const segs = path.replace(/\/+$/, "").split("/");
  return segs.some((s) => s === "" || s === "." || s === "..") ? undefined : segs.join("/");
}

/** `ls_tree`'s listing without the lines that name a denied path (relative to the tree given as `rev:path`). */
export function filterTreeListing(text: string, parsed: ParsedArgs, deny: GitDeny): string {
  const treeish = parsed.positionals[0] ?? "";
  const colon = treeish.indexOf(":");
  const base = colon === -1 || colon === treeish.length - 1 ? "" : objectPath(treeish);
  if (base === undefined) throw new ToolError("ignored", { reason: "git_deny_ls_tree", actual: treeish });
  const full = parsed.flagNames.has("--full-name") || parsed.flagNames.has("--full-tree");
  return lfPieces(text)
    .filter((line) => {
      const tab = line.indexOf("\t");
      const name = unquote(tab === -1 ? line : line.slice(tab + 1));
      const rel = base === "" || full ? name : `${base}/${name}`;
      return !deny.rules.denies(rel, deny.folds);
    })
    .join("\n");
}

/** A path as git prints it with `core.quotePath=false` (quoted only for `"`, `\` and control characters). */
function unquote(name: string): string {
  if (!(name.startsWith('"') && name.endsWith('"'))) return name;
  try {
    return JSON.parse(name) as string;
  } catch {
    return name.slice(1, -1);
  }
}
