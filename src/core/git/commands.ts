import { ToolError } from "../errors.js";

/**
 * The read-only git subcommands of the `git` tool and what each may be given. Flags are matched exactly
 * against an allow-list (git's own long-option abbreviation and short-flag bundling are not accepted, so
 * `-rd` cannot smuggle a delete behind an allowed `-r`). Positional arguments are validated too.
 */
export type GitCommand =
  | "log"
  | "diff"
  | "status"
  | "merge_base"
  | "fetch"
  | "show"
  | "branch"
  | "rev_parse"
  | "ls_tree"
  | "ls_files"
  | "ls_remote"
  | "check_ignore";

export const GIT_COMMANDS: readonly GitCommand[] = [
  "log",
  "diff",
  "status",
  "merge_base",
  "fetch",
  "show",
  "branch",
  "rev_parse",
  "ls_tree",
  "ls_files",
  "ls_remote",
  "check_ignore",
];

/** What the non-flag arguments of a command are. */
type PositionalKind =
  | "revs" // revisions and ranges
  | "paths" // pathspecs
  | "tree-then-paths"
  | "remote-then-refs" // fetch: a configured remote, then source refs (no `src:dst`)
  | "remote-then-patterns" // ls-remote: a configured remote, then patterns
  | "branch-patterns";

interface CommandSpec {
  /** Flags allowed bare. */
  bool: readonly string[];
  /** Flags that need a value, given as `--f=v`, `--f v` or (short) `-fV`. */
  sep: readonly string[];
  /** Flags whose value may only be attached: `--f=v` or (short) `-fV`. */
  att: readonly string[];
  /** `-<n>` (e.g. `-5`) is a count. */
  intFlag?: boolean;
  /** Takes a pathspec after `--`. */
  pathspec: boolean;
  positional: PositionalKind;
  maxLines: number;
}

const DIFF_BOOL = [
  "--name-only",
  "--name-status",
  "--stat",
  "--shortstat",
  "--numstat",
  "--no-patch",
  "--patch",
  "-p",
  "--no-ext-diff",
  "--no-textconv",
  "-M",
  "-C",
  "--find-renames",
  "--find-copies",
  "--color-words",
  "--word-diff",
] as const;
const DIFF_ATT = [
  "--stat",
  "--unified",
  "-U",
  "--diff-filter",
  "-M",
  "-C",
  "--find-renames",
  "--find-copies",
  "--color-words",
  "--word-diff",
] as const;
const REV_SEP = [
  "--author",
  "--committer",
  "--grep",
  "--since",
  "--until",
  "--after",
  "--before",
  "--max-count",
  "-n",
  "--skip",
  "--date",
] as const;

export const SPECS: Record<GitCommand, CommandSpec> = {
  log: {
    bool: [
      ...DIFF_BOOL,
      "--oneline",
      "--abbrev-commit",
      "--invert-grep",
      "--all-match",
      "--all",
      "--branches",
      "--tags",
      "--remotes",
      "--merges",
      "--no-merges",
      "--first-parent",
      "--reverse",
      "--graph",
      "--decorate",
      "--no-decorate",
      "--follow",
    ],
    sep: REV_SEP,
    att: [...DIFF_ATT, "--format", "--pretty", "--decorate", "--branches", "--tags", "--remotes"],
    intFlag: true,
    pathspec: true,
    positional: "revs",
    maxLines: 50,
  },
  diff: {
    bool: [
      ...DIFF_BOOL,
      "--staged",
      "--cached",
      "--no-prefix",
      "-b",
      "-w",
      "--ignore-space-change",
      "--ignore-all-space",
      "--ignore-space-at-eol",
      "--ignore-blank-lines",
      "--minimal",
      "--patience",
      "--histogram",
      "--relative",
    ],
    // No separate values for diff: every word that is not a flag is then a positional and gets checked, so
    // nothing can slip two outside paths past as a flag's value (which would make git diff them, no-index).
    sep: [],
    att: [...DIFF_ATT, "--word-diff-regex", "--diff-algorithm", "--relative"],
    intFlag: true,
    pathspec: true,
    positional: "revs",
    maxLines: 100,
  },
  status: {
    bool: [
      "--short",
      "-s",
      "--long",
      "--branch",
      "-b",
      "--porcelain",
      "--verbose",
      "-v",
      "--untracked-files",
      "-u",
      "--ignored",
      "--ignore-submodules",
      "--show-stash",
      "--ahead-behind",
      "--no-ahead-behind",
      "--renames",
      "--no-renames",
      "--find-renames",
      "-z",
      "--null",
      "--column",
      "--no-column",
    ],
    sep: [],
    att: [
      "--porcelain",
      "--untracked-files",
      "-u",
      "--ignored",
      "--ignore-submodules",
      "--find-renames",
      "--column",
    ],
    pathspec: true,
    positional: "paths",
    maxLines: 200,
  },
  merge_base: {
    bool: ["--all", "-a", "--octopus", "--independent", "--is-ancestor", "--fork-point"],
    sep: [],
    att: [],
    pathspec: false,
    positional: "revs",
    maxLines: 100,
  },
  fetch: {
    // --depth/--shallow-* would make a full clone shallow and --force would let a refspec clobber refs:
    // neither is a read, so unlike mcp-workspace they are not offered.
    bool: ["--all", "--prune", "--tags", "--no-tags", "--verbose", "-v", "--quiet", "-q", "--dry-run"],
    sep: [],
    att: [],
    pathspec: false,
    positional: "remote-then-refs",
    maxLines: 100,
  },
  show: {
    bool: [...DIFF_BOOL, "--oneline", "--abbrev-commit", "--no-decorate"],
    sep: ["--date"],
    att: [...DIFF_ATT, "--format", "--pretty", "--abbrev"],
    intFlag: true,
    pathspec: true,
    positional: "revs",
    maxLines: 100,
  },
  branch: {
    bool: [
      "--list",
      "-l",
      "-a",
      "--all",
      "-r",
      "--remotes",
      "-v",
      "-vv",
      "--verbose",
      "--show-current",
      "--no-color",
      "--contains",
      "--merged",
      "--no-merged",
    ],
    sep: ["--contains", "--merged", "--no-merged", "--sort"],
    att: [],
    pathspec: false,
    positional: "branch-patterns",
    maxLines: 100,
  },
  rev_parse: {
    bool: [
      "--abbrev-ref",
      "--short",
      "--verify",
      "--symbolic",
      "--symbolic-full-name",
      "--show-toplevel",
      "--show-cdup",
      "--git-dir",
      "--is-inside-work-tree",
      "--is-bare-repository",
      "--show-prefix",
      "--show-superproject-working-tree",
      "--quiet",
      "-q",
    ],
    sep: [],
    att: ["--abbrev-ref", "--short"],
    pathspec: false,
    positional: "revs",
    maxLines: 100,
  },
  ls_tree: {
    bool: ["-r", "-t", "-d", "--name-only", "--name-status", "--long", "-l", "--full-name", "--full-tree"],
    sep: [],
    att: ["--abbrev"],
    pathspec: true,
    positional: "tree-then-paths",
    maxLines: 100,
  },
  ls_files: {
    bool: [
      "--cached",
      "-c",
      "--deleted",
      "-d",
      "--modified",
      "-m",
      "--others",
      "-o",
      "--ignored",
      "-i",
      "--stage",
      "-s",
      "--unmerged",
      "-u",
      "--exclude-standard",
      "--error-unmatch",
      "--full-name",
    ],
    sep: ["--exclude", "-x"],
    att: ["--abbrev"],
    pathspec: true,
    positional: "paths",
    maxLines: 100,
  },
  ls_remote: {
    bool: ["--heads", "--tags", "--refs", "--quiet", "-q", "--get-url"],
    sep: ["--sort"],
    att: [],
    pathspec: false,
    positional: "remote-then-patterns",
    maxLines: 100,
  },
  check_ignore: {
    bool: ["-v", "--verbose", "-n", "--non-matching", "--no-index"],
    sep: [],
    att: [],
    pathspec: true,
    positional: "paths",
    maxLines: 50,
  },
};

export function gitSubcommand(cmd: GitCommand): string {
  return cmd.replace("_", "-");
}

export interface ParsedArgs {
  /** Flags (and their values) in the order given. */
  flags: string[];
  /** Flag names present (without values), for behaviour switches. */
  flagNames: Set<string>;
  positionals: string[];
  pathspec: string[];
}

function flagError(flag: string, cmd: GitCommand): ToolError {
  return new ToolError("invalid", { reason: "git_flag", command: cmd, actual: flag });
}

/** Splits and checks `args`/`pathspec` against the command's allow-list. Throws ToolError on refusal. */
export function parseArgs(cmd: GitCommand, args: readonly string[], pathspecParam: readonly string[]) {
  const spec = SPECS[cmd];
  const dashes = args.filter((a) => a === "--").length;
  let head = [...args];
  let tail: string[] = [];
  if (dashes > 0) {
    if (!spec.pathspec) throw new ToolError("invalid", { reason: "git_no_dashes", command: cmd });
    if (dashes > 1) throw new ToolError("invalid", { reason: "git_double_dash" });
    const i = args.indexOf("--");
    head = args.slice(0, i);
    tail = args.slice(i + 1);
    if (tail.length > 0 && pathspecParam.length > 0)
      throw new ToolError("invalid", { reason: "git_pathspec_twice" });
  }
  const out: ParsedArgs = { flags: [], flagNames: new Set(), positionals: [], pathspec: [] };
  for (let i = 0; i < head.length; i++) {
    const tok = head[i]!;
    if (!tok.startsWith("-") || tok === "-") {
      out.positionals.push(tok);
      continue;
    }
    if (spec.intFlag && /^-\d+$/.test(tok)) {
      out.flags.push(tok);
      out.flagNames.add("-n");
      continue;
    }
    if (spec.sep.includes(tok)) {
      const value = head[i + 1];
      // A flag whose value is optional (branch --contains) stays bare when no value follows.
      const bare = spec.bool.includes(tok) && (value === undefined || value.startsWith("-"));
      if (!bare) {
        if (value === undefined) throw new ToolError("invalid", { reason: "git_flag_value", actual: tok });
        out.flags.push(tok, value);
        out.flagNames.add(tok);
        i++;
        continue;
      }
    }
    if (spec.bool.includes(tok)) {
      out.flags.push(tok);
      out.flagNames.add(tok);
      continue;
    }
    const eq = tok.indexOf("=");
    if (tok.startsWith("--") && eq > 2) {
      const name = tok.slice(0, eq);
      if (spec.sep.includes(name) || spec.att.includes(name)) {
        out.flags.push(tok);
        out.flagNames.add(name);
        continue;
      }
    } else if (/^-[A-Za-z]./.test(tok)) {
      const name = tok.slice(0, 2);
      if (spec.sep.includes(name) || spec.att.includes(name)) {
        out.flags.push(tok);
        out.flagNames.add(name);
        continue;
      }
    }
    throw flagError(tok, cmd);
  }
  if (cmd === "log" || cmd === "show") for (const f of out.flags) checkFormat(f);
  out.pathspec = [...tail, ...pathspecParam];
  for (const p of out.pathspec) checkPathLike(p, cmd, "pathspec");
  return out;
}

/** `%G?`, `%GS`, ... make git run gpg to verify each commit: a format may not ask for them. */
function checkFormat(flag: string): void {
  if (/^--(?:format|pretty)=/.test(flag) && flag.includes("%G"))
    throw new ToolError("invalid", { reason: "git_format_gpg", actual: flag });
}

/**
 * A word that names a place outside the repository: absolute, home-relative, or with a `..` segment.
 * git diff given two such words compares the files themselves (an implicit --no-index), so none may pass.
 */
export function isOutsidePathLike(word: string): boolean {
  if (word.startsWith("/") || word.startsWith("~") || word.startsWith("\\")) return true;
  if (/^[A-Za-z]:[\\/]/.test(word)) return true;
  return word.split(/[\\/]/).some((seg) => seg === "..");
}

/** `parameter`: where the word came from (`args`, or `pathspec` for the paths after `--`). */
function checkPathLike(word: string, cmd: GitCommand, parameter: "args" | "pathspec"): void {
  if (word.includes("\0")) throw new ToolError("invalid", { reason: "git_arg_nul", parameter });
  if (isOutsidePathLike(word))
    throw new ToolError("invalid", { reason: "git_arg_outside", parameter, command: cmd, actual: word });
}

/** Refs that fetch may name as a source: a plain ref name, no `src:dst`, no force or negative prefix. */
function checkFetchRef(ref: string): void {
  if (ref.includes(":") || ref.startsWith("+") || ref.startsWith("^") || /[\s*?[\\]/.test(ref))
    throw new ToolError("invalid", { reason: "git_refspec", actual: ref });
}

/** Checks positionals; `remotes` are the configured remote names. */
export function checkPositionals(cmd: GitCommand, parsed: ParsedArgs, remotes: readonly string[]): void {
  const spec = SPECS[cmd];
  const pos = parsed.positionals;
  for (const p of pos) checkPathLike(p, cmd, "args");
  switch (spec.positional) {
    case "remote-then-refs":
    case "remote-then-patterns": {
      const [remote, ...rest] = pos;
      if (remote !== undefined && !remotes.includes(remote))
        throw new ToolError("invalid", { reason: "git_remote", command: cmd, actual: remote });
      if (cmd === "fetch") {
        for (const r of rest) checkFetchRef(r);
        if (parsed.flagNames.has("--prune") && parsed.flagNames.has("--tags"))
          throw new ToolError("invalid", { reason: "git_prune_tags" });
        if (parsed.flagNames.has("--all") && pos.length > 0)
          throw new ToolError("invalid", { reason: "git_fetch_all" });
      }
      break;
    }
    case "branch-patterns": {
      const read = SPECS.branch.bool.filter((f) => f !== "--no-color");
      if (![...parsed.flagNames].some((f) => read.includes(f) || f === "--sort"))
        throw new ToolError("invalid", { reason: "git_branch_read" });
      if (parsed.flagNames.has("--show-current") && (pos.length > 0 || parsed.flagNames.size > 1))
        throw new ToolError("invalid", { reason: "git_show_current" });
      break;
    }
    default:
      break;
  }
}

/**
 * What every fetch this server runs is given: no fetch inside a submodule (whose own config was not read;
 * a repository's `submodule.<name>.fetchRecurseSubmodules` beats any config, only the flag beats it), and
 * the stock upload-pack, which a repository's `remote.<r>.uploadpack` (read first-wins) cannot beat.
 */
export const FETCH_LOCKS: readonly string[] = ["--no-recurse-submodules", "--upload-pack=git-upload-pack"];

/**
 * Flags given after the caller's (git takes the last), for what config cannot pin down: no external diff,
 * textconv or signature check; no look inside a submodule's work tree (its own config was not read, and a
 * submodule's `.git` file may name a repository outside the roots, whose HEAD a diff would print); the
 * stock upload-pack, which a repository's `remote.<r>.uploadpack` (read first-wins) cannot beat.
 */
function lockingFlags(cmd: GitCommand): string[] {
  switch (cmd) {
    case "log":
    case "show":
      return ["--no-ext-diff", "--no-textconv", "--no-show-signature"];
    case "diff":
      return ["--no-ext-diff", "--no-textconv", "--ignore-submodules=all"];
    case "status":
      return ["--ignore-submodules=all"];
    case "fetch":
      return [...FETCH_LOCKS];
    case "ls_remote":
      return ["--upload-pack=git-upload-pack"];
    default:
      return [];
  }
}

/** The full argv after `git` for a validated call. */
export function buildArgv(cmd: GitCommand, parsed: ParsedArgs, extra: readonly string[] = []): string[] {
  const sub = gitSubcommand(cmd);
  const argv = [sub];
  argv.push(...extra);
  if (cmd === "branch" && !parsed.flagNames.has("--show-current")) {
    // Always list mode: any remaining word is a pattern to match, never a branch to create.
    const flags = parsed.flags.filter((f) => f !== "--list" && f !== "-l");
    argv.push(...flags, "--list", ...parsed.positionals);
    return argv;
  }
  argv.push(...parsed.flags, ...lockingFlags(cmd));
  argv.push(...parsed.positionals);
  if (SPECS[cmd].pathspec && parsed.pathspec.length > 0) argv.push("--", ...parsed.pathspec);
  return argv;
}
