/**
 * Which configuration git may act on when this server runs it. System and global configuration are the
 * user's own and trusted (git-lfs's filter and a credential helper live there). Everything else — the
 * repository's `.git/config`, its worktree config and anything either includes — is data from the
 * workspace: no key there that can name a program (or a file git writes) is let through. Each such key is
 * overridden on git's command line (command scope, which git reads last) by the trusted value, or by an
 * inert one when the user has none. The few keys git reads first-wins, which no later value can beat,
 * make the call refuse instead.
 */

/** One entry of `git config --list --show-scope --includes -z`, in git's reading order. */
export interface ConfigEntry {
  /** `system`, `global`, `local`, `worktree`, `command`, ... */
  scope: string;
  /** As git prints it: section and variable lower-cased, subsection verbatim. */
  key: string;
  /** `null` for a bare boolean key (`[core] flag`). */
  value: string | null;
  /** Where git read it (`file:<path>`, relative to where git ran; `command line:`, ...), when listed. */
  origin?: string;
}

/** What a repository's configuration is kept from doing, decided from one listing of its config. */
export interface ConfigGuard {
  /** `-c key=value` settings (in order) that overrule the repository's program-naming keys. */
  overrides: ReadonlyArray<readonly [string, string]>;
  /** Environment for git, for what no `-c` can overrule. */
  env: Readonly<Record<string, string>>;
  /** The repository-scope keys that were overruled (for messages). */
  neutralised: readonly string[];
  /** Set when the call must not run at all: which case, and the key (or how many keys) at fault. */
  refusal?: ConfigRefusal;
}

/** Why git is not run in a repository, as data (worded in surfaces/wording.ts). */
export interface ConfigRefusal {
  readonly reason:
    | "git_config_first_wins"
    | "git_config_unsayable"
    | "git_config_too_many"
    | "git_config_include";
  /** The key at fault, or how many keys name programs. */
  readonly actual?: string | number;
}

const TRUSTED_SCOPES = new Set(["system", "global", "command"]);

/** Sections that exist to configure external programs (or, for `pretty`, formats that can run gpg). */
const PROGRAM_SECTIONS = new Set([
  "alias",
  "browser",
  "credential",
  "difftool",
  "filter",
  "gpg",
  "guitool",
  "hook",
  "instaweb",
  "man",
  "mergetool",
  "pager",
  "pretty",
  "sendemail",
  "uploadpack",
  "web",
]);

/** Sections whose `<section>.<driver>.<key>` entries define drivers that attributes name. */
const DRIVER_SECTIONS = new Set(["diff", "merge"]);

/**
 * Variable names that name a program (or a file git would read or write outside the repository), whatever
 * their section: `core.sshCommand`, `core.gitProxy`, `remote.<r>.uploadpack`, `core.hooksPath`, ...
 */
const PROGRAM_VARIABLE =
  /(?:askpass|browser|clean|cmd|command|driver|editor|external|file|fsmonitor|helper|hook|hookspath|pack|pager|pretty|process|program|proxy|smudge|textconv|tool|tunnel|update|vcs)$/;

/** Keys git collects first-wins: a repository value beats anything given later, so none may exist. */
const FIRST_WINS_VARIABLE = /^remote\..+\.(?:uploadpack|receivepack)$/;

/** The value that stands for "not set" where an empty one would mean something else. */
const INERT: ReadonlyArray<readonly [RegExp, string]> = [
  [/^core\.sshcommand$/, "ssh"],
  [/^format\.pretty$/, "medium"],
  // An empty path can be an error (diff.orderFile); an empty file never is. git maps it on Windows too.
  [/file$/, "/dev/null"],
];

/** Transports git may use: its own, plus any the user's trusted config allows (`protocol.<name>.allow`). */
const DEFAULT_PROTOCOLS = ["file", "git", "http", "https", "ssh"];

function parts(key: string): { section: string; subsection?: string; variable: string } {
  const first = key.indexOf(".");
  const last = key.lastIndexOf(".");
  return {
    section: key.slice(0, first),
    subsection: last > first ? key.slice(first + 1, last) : undefined,
    variable: key.slice(last + 1),
  };
}

/** True when a key (as git lists it) can name a program git would run, or a file it would touch. */
function namesProgram(key: string): boolean {
  const { section, subsection, variable } = parts(key);
  if (PROGRAM_SECTIONS.has(section)) return true;
  if (DRIVER_SECTIONS.has(section) && subsection !== undefined) return true;
  return PROGRAM_VARIABLE.test(variable);
}

/**
 * Parses the NUL-separated listing: `scope NUL key LF value NUL` (no LF for a bare key), or with
 * `--show-origin`, `scope NUL origin NUL key LF value NUL`.
 */
export function parseConfigList(text: string, withOrigin = false): ConfigEntry[] {
  const fields = text.split("\0");
  const step = withOrigin ? 3 : 2;
  const out: ConfigEntry[] = [];
  for (let i = 0; i + step - 1 < fields.length; i += step) {
    const scope = fields[i]!;
    const kv = fields[i + step - 1]!;
    const nl = kv.indexOf("\n");
    const entry: ConfigEntry =
      nl < 0 ? { scope, key: kv, value: null } : { scope, key: kv.slice(0, nl), value: kv.slice(nl + 1) };
    if (withOrigin) entry.origin = fields[i + 1]!;
    out.push(entry);
  }
  return out;
}

/** Whether git reads `e` from the workspace (the repository's own files), not from the user's config. */
export function fromWorkspace(e: ConfigEntry): boolean {
  return !TRUSTED_SCOPES.has(e.scope);
}

const sectionVariable = (key: string) => {
  const { section, variable } = parts(key);
  return `${section}.${variable}`;
};

/** Above this, the command line could break Windows' 32 KiB limit: refuse rather than cut the list. */
const MAX_OVERRIDE_CHARS = 16 * 1024;

/** Decides, from the full config listing, what to overrule and whether to run at all. */
export function guardFromConfig(entries: readonly ConfigEntry[]): ConfigGuard {
  const untrusted = new Set<string>();
  for (const e of entries) if (fromWorkspace(e) && namesProgram(e.key)) untrusted.add(e.key);
  const neutralised = [...untrusted];
  const firstWins = neutralised.find((k) => FIRST_WINS_VARIABLE.test(k));
  if (firstWins) return refuse(neutralised, { reason: "git_config_first_wins", actual: firstWins });
  const unsayable = neutralised.find((k) => k.includes("="));
  if (unsayable) return refuse(neutralised, { reason: "git_config_unsayable", actual: unsayable });
  const overrides: [string, string][] = neutralised.map((k) => [
    k,
    INERT.find(([re]) => re.test(k))?.[1] ?? "",
  ]);
  // Then the user's own values for the same variables, in git's order: the last one wins again, and a
  // list (credential helpers, which an empty entry for any URL clears) is rebuilt as the user wrote it.
  const variables = new Set(neutralised.map(sectionVariable));
  for (const e of entries)
    if (
      TRUSTED_SCOPES.has(e.scope) &&
      e.value !== null &&
      !e.key.includes("=") && // `-c` cannot say such a key; the user's entry is left out rather than garbled
      variables.has(sectionVariable(e.key))
    )
      overrides.push([e.key, e.value]);
  if (overrides.reduce((n, [k, v]) => n + k.length + v.length + 6, 0) > MAX_OVERRIDE_CHARS)
    return refuse(neutralised, { reason: "git_config_too_many", actual: neutralised.length });
  return { overrides, env: envFor(entries, untrusted), neutralised };
}

function refuse(neutralised: string[], refusal: ConfigRefusal): ConfigGuard {
  return { overrides: [], env: {}, neutralised, refusal };
}

function envFor(entries: readonly ConfigEntry[], untrusted: ReadonlySet<string>): Record<string, string> {
  const protocols = new Set(DEFAULT_PROTOCOLS);
  for (const e of entries) {
    const m = /^protocol\.([^.]+)\.allow$/.exec(e.key);
    if (m && TRUSTED_SCOPES.has(e.scope) && (e.value === "always" || e.value === "user"))
      protocols.add(m[1]!);
  }
  // Overrides every protocol.* setting, in every git this one starts (ext::, fd:: and unknown helpers).
  const env: Record<string, string> = { GIT_ALLOW_PROTOCOL: [...protocols].join(":") };
  // core.gitProxy is read first-wins after this variable: an empty one means "no proxy" and ends the search.
  if (untrusted.has("core.gitproxy")) env.GIT_PROXY_COMMAND = "";
  return env;
}
