import { ToolError } from "../errors.js";
import type { Root } from "../workspace.js";
import {
  buildArgv,
  checkPositionals,
  GIT_COMMANDS,
  type GitCommand,
  gitSubcommand,
  type ParsedArgs,
  parseArgs,
  SPECS,
} from "./commands.js";
import { compactDiff } from "./compact.js";
import { checkDeniedObjects, excludePathspecs, filterTreeListing, type GitDeny } from "./deny-paths.js";
import { applyExcludes, excludesAfter, listsUntracked, withoutIgnored } from "./hidden-paths.js";
import { filterDiff, filterLines, filterLog, searchMatcher, truncateLines } from "./output.js";
import { isRepoRoot } from "./repo.js";
import { type GitRepository, openRepository, remoteUrls } from "./repository-gate.js";
import { type GitRunResult, runGit } from "./runner.js";

export interface GitReadParams {
  command: string;
  args?: readonly string[] | null;
  pathspec?: readonly string[] | null;
  search?: string | null;
  context?: number;
  maxLines?: number | null;
  compact?: boolean;
}

export interface GitReadOptions {
  /** Repository root (project or reference): git stays inside it (repository-gate.ts). */
  root: Root;
  /** How the repository is named in messages (never an absolute path the client did not send). */
  label: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The root's `--deny` rules (see deny-paths.ts). */
  deny?: GitDeny;
  /** The surface hides what the ignore rules ignore: git output names none of it (see hidden-paths.ts). */
  hideIgnored?: boolean;
}

const SEARCHABLE: readonly GitCommand[] = ["log", "diff", "show"];
const DIFFING: readonly GitCommand[] = ["diff", "show"];
const SUMMARY_ONLY = ["--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--no-patch"];

const EMPTY: Record<GitCommand, string> = {
  log: "No commits found.",
  diff: "No changes found",
  status: "No changes found",
  show: "No output.",
  branch: "No branches found.",
  fetch: "Fetch complete (no output).",
  merge_base: "No common ancestor found",
  check_ignore: "No paths are ignored.",
  rev_parse: "No output.",
  ls_tree: "No output.",
  ls_files: "No output.",
  ls_remote: "No output.",
};

/** Runs one read-only git command of the `git` tool and shapes its output as mcp-workspace does. */
export async function runGitRead(params: GitReadParams, opts: GitReadOptions): Promise<string> {
  const cmd = params.command as GitCommand;
  if (!GIT_COMMANDS.includes(cmd))
    throw new ToolError("invalid", { reason: "git_command", parameter: "command", actual: params.command });
  const spec = SPECS[cmd];
  const context = params.context ?? 3;
  const compact = params.compact ?? true;
  const warnings: string[] = [];
  if (!compact && !DIFFING.includes(cmd))
    warnings.push(`⚠ 'compact' is not supported for git ${cmd} and was ignored.`);
  if (context !== 3 && !DIFFING.includes(cmd))
    warnings.push(`⚠ 'context' is not supported for git ${cmd} and was ignored.`);
  const search = params.search ?? undefined;
  if (search !== undefined && !SEARCHABLE.includes(cmd))
    warnings.push(`⚠ 'search' is not supported for git ${cmd} and was ignored.`);
  let pathspec = [...(params.pathspec ?? [])];
  if (pathspec.length > 0 && !spec.pathspec) {
    warnings.push(`⚠ 'pathspec' is not supported for git ${cmd} and was ignored.`);
    pathspec = [];
  }
  if (context < 0)
    throw new ToolError("invalid", { reason: "below_minimum", parameter: "context", limit: 0 });
  if (params.maxLines != null && params.maxLines < 1)
    throw new ToolError("invalid", { reason: "below_minimum", parameter: "max_lines", limit: 1 });

  const parsed = parseArgs(cmd, params.args ?? [], pathspec);
  if (cmd === "check_ignore" && parsed.pathspec.length === 0)
    throw new ToolError("invalid", { reason: "git_check_ignore" });
  const match = search !== undefined && SEARCHABLE.includes(cmd) ? searchMatcher(search) : undefined;

  // Where the repository really is, and its config, judged once for the whole call.
  const repo = await openRepository(opts.root, { label: opts.label, signal: opts.signal });
  if (!isRepoRoot(repo)) throw new ToolError("invalid", { reason: "git_not_repo", path: opts.label });
  const remotes = cmd === "fetch" || cmd === "ls_remote" ? [...(await remoteUrls(repo)).keys()] : [];
  checkPositionals(cmd, parsed, remotes);
  const untracked = await hideFromGit(cmd, parsed, repo, opts, warnings);

  const blob = cmd === "show" && parsed.positionals.some((p) => /^[^:]+:/.test(p) || p.startsWith(":"));
  const summaryOnly =
    [...parsed.flagNames].some((f) => SUMMARY_ONLY.includes(f)) &&
    !parsed.flagNames.has("-p") &&
    !parsed.flagNames.has("--patch");
  const doCompact = compact && DIFFING.includes(cmd) && !blob && !summaryOnly;
  // Denied names are filtered from ls_tree's listing, which needs them unquoted.
  const config = opts.deny && cmd === "ls_tree" ? { "core.quotePath": "false" } : undefined;
  const run = () =>
    runGit(repo, buildArgv(cmd, parsed), { signal: opts.signal, timeoutMs: opts.timeoutMs, config });
  const r = untracked ? await runIgnoring(repo, parsed, run, opts.signal) : await run();
  const sub = gitSubcommand(cmd);
  if (r.timedOut) throw new ToolError("io", { reason: "git_timeout", command: sub });
  let text = r.stdout;
  if (cmd === "merge_base" && parsed.flagNames.has("--is-ancestor") && (r.code === 0 || r.code === 1)) {
    text = r.code === 0 ? "true" : "false";
  } else if (cmd === "check_ignore" && r.code === 1) {
    text = "";
  } else if (cmd === "merge_base" && r.code === 1 && r.stderr.trim() === "") {
    text = "";
  } else if (r.code !== 0) {
    const why = r.stderr.trim().split(repo.cwd).join(opts.label) || `exit code ${r.code}`;
    throw new ToolError("invalid", { reason: "git_failed", command: sub, cause: why });
  }
  text = text.replace(/\n+$/, "");
  if (opts.deny && cmd === "ls_tree") text = filterTreeListing(text, parsed, opts.deny);
  if (text === "") return withWarnings(EMPTY[cmd], warnings);

  if (match) {
    const filtered =
      cmd === "log"
        ? filterLog(text, match)
        : blob
          ? filterLines(text, match, context)
          : filterDiff(text, match, context);
    if (filtered.trim() === "") return withWarnings(`No matches for search pattern '${search}'`, warnings);
    text = filtered;
  }
  if (doCompact) text = compactDiff(text);
  text = truncateLines(text, params.maxLines ?? spec.maxLines);
  if (r.truncated) text += "\n[output cut: git produced more than the output limit]";
  return withWarnings(text, warnings);
}

/**
 * What the server's rules hide is left out of the call (hidden-paths.ts): `--deny` excludes and objects,
 * and on a `status` or `ls-files` under the ignore gate no `--ignored`. True for the latter.
 */
async function hideFromGit(
  cmd: GitCommand,
  parsed: ParsedArgs,
  repo: GitRepository,
  opts: GitReadOptions,
  warnings: string[],
): Promise<boolean> {
  if (opts.deny) {
    applyExcludes(cmd, parsed, excludePathspecs(opts.deny));
    await checkDeniedObjects(cmd, parsed, opts.deny, repo, opts.signal);
  }
  if (!listsUntracked(cmd, opts.hideIgnored)) return false;
  const dropped = withoutIgnored(cmd, parsed);
  if (dropped) warnings.push(dropped);
  return true;
}

/**
 * Runs a `status` or `ls-files`, then again with the ignore gate's excludes when its output may name what
 * the gate hides (hidden-paths.ts `excludesAfter`): working them out takes a git of its own, which an
 * ordinary run does not pay.
 */
async function runIgnoring(
  repo: GitRepository,
  parsed: ParsedArgs,
  run: () => Promise<GitRunResult>,
  signal: AbortSignal | undefined,
): Promise<GitRunResult> {
  const first = await run();
  const more = await excludesAfter(repo, first.stdout, signal);
  if (more.length === 0) return first;
  parsed.pathspec = [...parsed.pathspec, ...more];
  return run();
}

function withWarnings(text: string, warnings: readonly string[]): string {
  return warnings.length ? `${text}\n\n${warnings.join("\n")}` : text;
}
