import fs from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import { namesOf, type Root } from "../root.js";
import { lfPieces } from "../text/lines.js";
import { type ConfigGuard, fromWorkspace, guardFromConfig, parseConfigList } from "./config-trust.js";
import { DEFAULT_GIT_MAX_BYTES, type GitRunResult, gitEnv, safeArgv, spawnGit } from "./spawn.js";

/**
 * The repository gate: whatever a repository's own files say, git stays inside the root it serves. Before
 * any git command runs, `openRepository` asks git where the repository really is (git dir, common dir, work
 * tree) and refuses unless all of them, the object store and every alternate object store resolve inside
 * that root; `admitCommand` then refuses, per command, any write into a read-only root and any contact with
 * a remote whose URL (after the repository's own `insteadOf` rewriting) is a local path outside the root,
 * or a local repository inside it whose own data lies outside. Confinement is the Workspace's: real paths,
 * compared by whole segments under the root volume's name policy.
 */

declare const opened: unique symbol;

/** A repository that passed the gate; only `openRepository` makes one, and `runGit` takes nothing else. */
export interface GitRepository {
  readonly root: Root;
  /** Where git runs (the root's real path). */
  readonly cwd: string;
  /** The real top of the work tree (inside `root`). */
  readonly topLevel: string;
  /** How the repository is named in messages. */
  readonly label: string;
  /** What the repository's configuration is kept from doing (config-trust.ts). */
  readonly guard: ConfigGuard;
  readonly [opened]: true;
}

export interface OpenOptions {
  /** How the repository is named in messages (never an absolute path the client did not send). */
  label?: string;
  signal?: AbortSignal;
}

const PROBE = { maxBytes: 64 * 1024, timeoutMs: 15_000 };
/** git follows alternates' alternates five deep; one more level is enough to judge what it would read. */
const MAX_ALTERNATE_DEPTH = 6;

/** Reading commands (a read-only root allows these only); the forms that write are sorted out below. */
const READING = new Set([
  "branch",
  "cat-file",
  "check-ignore",
  "config",
  "diff",
  "for-each-ref",
  "log",
  "ls-files",
  "ls-remote",
  "ls-tree",
  "merge-base",
  "remote",
  "rev-list",
  "rev-parse",
  "show",
  "status",
  "symbolic-ref",
]);

/** Commands that contact a remote repository (which may be a local path). */
const CONTACTING = new Set(["archive", "clone", "fetch", "ls-remote", "pull", "push", "submodule"]);

/** Options the server itself puts before a subcommand (the runner's `-c` settings come with their value). */
const GLOBAL_FLAGS = new Set(["--no-pager", "--literal-pathspecs"]);

/** `part`: which part of the repository lies outside (`GitPart`; worded in surfaces/wording.ts). */
function outsideError(label: string, part: GitPart): ToolError {
  return new ToolError("denied", { reason: "git_outside", path: label, actual: part });
}

/** The real location of `p`: realpath, or that of its deepest existing ancestor plus the missing tail. */
async function realLocation(p: string): Promise<string> {
  let cur = path.resolve(p);
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(cur), ...tail);
    } catch {
      const up = path.dirname(cur);
      if (up === cur) return cur;
      tail.unshift(path.basename(cur));
      cur = up;
    }
  }
}

async function insideRoot(p: string, root: Root): Promise<boolean> {
  return namesOf(root).isAtOrBelow(await realLocation(p), root.real);
}

function firstLine(r: GitRunResult): string {
  return lfPieces(r.stderr.trim())[0] || (r.truncated ? "too large" : `exit code ${r.code}`);
}

/** Where git places the repository `cwd` opens: git dir, common dir and (when asked) work tree top. */
async function locate(cwd: string, withTop: boolean, signal?: AbortSignal) {
  const args = [
    "rev-parse",
    "--absolute-git-dir",
    "--git-common-dir",
    ...(withTop ? ["--show-toplevel"] : []),
  ];
  const r = await spawnGit(safeArgv(args, undefined), gitEnv(cwd), { cwd, signal, ...PROBE });
  const lines = lfPieces(r.stdout);
  if (r.code !== 0 || r.timedOut || r.truncated || lines.length < args.length) return undefined;
  const [gitDir, commonDir, topLevel] = lines.map((l) => path.resolve(cwd, l));
  return { gitDir: gitDir!, commonDir: commonDir!, topLevel };
}

/** One line of an alternates file: git's C quoting undone (`"..."` with `\\`, `\"`, `\t`, `\n`, octal). */
function unquote(line: string): string {
  if (!line.startsWith('"')) return line;
  const body = line.slice(1, line.endsWith('"') ? -1 : undefined);
  const named: Record<string, string> = { n: "\n", t: "\t", a: "\x07", b: "\b", f: "\f", r: "\r", v: "\v" };
  return body.replace(/\\([0-7]{3}|.)/g, (_, c: string) =>
    c.length === 3 ? String.fromCharCode(Number.parseInt(c, 8)) : (named[c] ?? c),
  );
}

/** The first object store, from `objects` through every alternate, that lies outside `root`. */
async function objectStoreOutside(objects: string, root: Root, depth = 0): Promise<GitPart | undefined> {
  for (const p of [objects, path.join(objects, "pack")]) if (!(await insideRoot(p, root))) return "objects";
  if (depth >= MAX_ALTERNATE_DEPTH) return "alternates_chain";
  let text: string;
  try {
    text = await fs.readFile(path.join(objects, "info", "alternates"), "utf8");
  } catch {
    return undefined;
  }
  for (const raw of lfPieces(text)) {
    const line = raw.replace(/\r$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const alt = path.resolve(await realLocation(objects), unquote(line));
    if (await objectStoreOutside(alt, root, depth + 1)) return "alternate";
  }
  return undefined;
}

/** A part of a repository that can lie outside its root. */
type GitPart = "git_dir" | "common_dir" | "work_tree" | "refs" | "objects" | "alternates_chain" | "alternate";

type Verdict = { missing: true } | { outside: GitPart } | { topLevel?: string };

/** Where the repository at `cwd` is, or what of it lies outside `root`, or that there is none. */
async function repositoryOutside(
  cwd: string,
  root: Root,
  withTop: boolean,
  signal?: AbortSignal,
): Promise<Verdict> {
  const where = await locate(cwd, withTop, signal);
  if (!where) return { missing: true };
  const checks: [string | undefined, GitPart][] = [
    [where.gitDir, "git_dir"],
    [where.commonDir, "common_dir"],
    [where.topLevel, "work_tree"],
    // The links a copied tree could carry in place of these (deeper ones are not followed one by one).
    [path.join(where.commonDir, "refs"), "refs"],
    [path.join(where.commonDir, "packed-refs"), "refs"],
  ];
  for (const [p, what] of checks)
    if (p !== undefined && !(await insideRoot(p, root))) return { outside: what };
  const store = await objectStoreOutside(path.join(where.commonDir, "objects"), root);
  if (store) return { outside: store };
  return where.topLevel === undefined ? {} : { topLevel: await realLocation(where.topLevel) };
}

/**
 * Reads the configuration git would see in `cwd` (a listing runs no program): what to overrule. A
 * repository whose configuration includes (`include.path`, `includeIf`) a file outside the root is refused:
 * git would act on that file and print its values (`ls_remote --get-url`, `config --list`).
 */
async function readGuard(cwd: string, root: Root, signal?: AbortSignal): Promise<ConfigGuard> {
  const args = ["config", "--list", "--show-scope", "--show-origin", "--includes", "-z"];
  const r = await spawnGit(args, gitEnv(cwd), {
    cwd,
    maxBytes: DEFAULT_GIT_MAX_BYTES,
    timeoutMs: 15_000,
    signal,
  });
  if (r.code !== 0 || r.truncated || r.timedOut)
    // git names the config file it could not read by its real path: said relative to the repository.
    throw new ToolError("io", { reason: "git_config_read", cause: firstLine(r).split(cwd).join(".") });
  const entries = parseConfigList(r.stdout, true);
  const files = new Set<string>();
  for (const e of entries)
    if (fromWorkspace(e) && e.origin?.startsWith("file:")) files.add(e.origin.slice("file:".length));
  for (const f of files)
    if (!(await insideRoot(path.resolve(cwd, f), root)))
      return {
        overrides: [],
        env: {},
        neutralised: [],
        refusal: { reason: "git_config_include" },
      };
  return guardFromConfig(entries);
}

function labelOf(root: Root): string {
  if (root.kind === "reference") return `reference project '${printable(root.name ?? "")}'`;
  return root.kind === "project" ? "the project directory" : "the directory";
}

/**
 * Opens the repository at the top of `root` for git commands, or throws a ToolError that says why not: not
 * a repository, its git dir, common dir, work tree, object store or an alternate outside the root, or a
 * repository configuration that names a program git cannot be kept from running.
 */
export async function openRepository(root: Root, opts: OpenOptions = {}): Promise<GitRepository> {
  const cwd = root.real;
  const label = opts.label ?? labelOf(root);
  // Both are reads that run no program, side by side; the listing (and any error it gave, which could
  // name a file outside) counts only once the places are judged.
  const [where, listing] = await Promise.allSettled([
    repositoryOutside(cwd, root, true, opts.signal),
    readGuard(cwd, root, opts.signal),
  ]);
  if (where.status === "rejected") throw where.reason;
  const verdict = where.value;
  if ("missing" in verdict) throw new ToolError("invalid", { reason: "git_not_repo", path: label });
  if ("outside" in verdict) throw outsideError(label, verdict.outside);
  if (listing.status === "rejected") throw listing.reason;
  const guard = listing.value;
  if (guard.refusal) throw new ToolError("denied", { ...guard.refusal, path: label });
  return { root, cwd, topLevel: verdict.topLevel ?? cwd, label, guard } as GitRepository;
}

/** The subcommand of `args` and what follows it (the server's own global flags skipped). */
function subcommandOf(args: readonly string[]): { sub: string; rest: readonly string[] } {
  let i = 0;
  while (i < args.length && GLOBAL_FLAGS.has(args[i]!)) i++;
  const sub = args[i];
  if (sub === undefined || sub.startsWith("-"))
    throw new ToolError("denied", { reason: "git_option", actual: sub ?? "" });
  return { sub, rest: args.slice(i + 1) };
}

/** Whether `git <sub> <rest>` may change the repository (the reading forms of mixed commands excepted). */
function writes(sub: string, rest: readonly string[]): boolean {
  const words = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "config":
      return !rest.some((a) => /^(?:--get(?:-all|-regexp|-urlmatch)?|--list|-l)$/.test(a));
    case "remote":
      return words.length > 0 && words[0] !== "get-url";
    case "symbolic-ref":
      return words.length > 1;
    case "branch":
      return !rest.includes("--list") && !rest.includes("--show-current");
    default:
      return !READING.has(sub);
  }
}

/** Each repository's remotes, read once per opening (a call that checks a remote name, then fetches). */
const remotesOf = new WeakMap<GitRepository, Promise<Map<string, string>>>();

/**
 * The remotes of the repository and the URL each is fetched from, after the repository's `insteadOf`
 * rewriting (as git itself applies it: `git remote -v`).
 */
export function remoteUrls(repo: GitRepository, signal?: AbortSignal): Promise<Map<string, string>> {
  let known = remotesOf.get(repo);
  if (!known) {
    known = readRemotes(repo, signal);
    remotesOf.set(repo, known);
  }
  return known;
}

async function readRemotes(repo: GitRepository, signal?: AbortSignal): Promise<Map<string, string>> {
  const r = await spawnGit(
    safeArgv(["remote", "-v"], repo.guard),
    { ...gitEnv(repo.cwd), ...repo.guard.env },
    {
      cwd: repo.cwd,
      signal,
      ...PROBE,
    },
  );
  if (r.code !== 0 || r.timedOut || r.truncated)
    throw new ToolError("io", {
      reason: "git_remotes_read",
      path: repo.label,
      cause: firstLine(r).split(repo.cwd).join("."),
    });
  const out = new Map<string, string>();
  for (const line of lfPieces(r.stdout)) {
    const m = /^([^\t]+)\t(.*) \(fetch\)$/.exec(line);
    if (m && !out.has(m[1]!)) out.set(m[1]!, m[2]!);
  }
  return out;
}

/**
 * The local path a git URL names, or undefined for a network one (git's own rule: `scheme://` is a URL,
 * `host:path` with the colon before any slash is ssh, anything else, a Windows drive included, is a path).
 */
function localPathOf(url: string): string | undefined {
  const helper = /^([A-Za-z][A-Za-z0-9+.-]*)::(.*)$/s.exec(url);
  if (helper) return localPathOf(helper[2]!);
  const file = /^file:\/\/(?:localhost)?(.*)$/is.exec(url);
  if (file) {
    const p = file[1]!.replace(/^\/(?=[A-Za-z]:)/, "");
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) return undefined;
  if (/^[A-Za-z]:[\\/]/.test(url)) return url;
  const colon = url.indexOf(":");
  const slash = url.search(/[\\/]/);
  return colon < 0 || (slash >= 0 && slash < colon) ? url : undefined;
}

/** Whether a local remote (git also tries `<p>.git` and `<p>/.git`) stays inside the root, its data too. */
async function localRemoteInside(repo: GitRepository, local: string, signal?: AbortSignal): Promise<boolean> {
  const p = path.resolve(repo.cwd, local);
  for (const cand of [p, `${p}.git`, path.join(p, ".git")])
    if (!(await insideRoot(cand, repo.root))) return false;
  const real = await realLocation(p);
  const st = await fs.stat(real).catch(() => undefined);
  if (!st?.isDirectory()) return true;
  const verdict = await repositoryOutside(real, repo.root, false, signal);
  return !("outside" in verdict);
}

/**
 * The gate for one command: refuses a write into a read-only root, and contact with a remote that is a
 * local path outside the root (or whose repository data lies outside). Throws a ToolError that says why.
 */
export async function admitCommand(
  repo: GitRepository,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<void> {
  const { sub, rest } = subcommandOf(args);
  if (repo.root.mode === "ro" && writes(sub, rest))
    throw new ToolError("read_only", { reason: "git_writes", command: sub, path: repo.label });
  const contacts = CONTACTING.has(sub) || (sub === "remote" && writes(sub, rest));
  if (!contacts) return;
  const urls = await remoteUrls(repo, signal);
  const words = rest.filter((a) => !a.startsWith("-"));
  const named = words.filter((w) => urls.has(w));
  // No remote named (`fetch`, `fetch --all`, a default upstream): every remote may be contacted.
  const targets: [string, string][] = named.length > 0 ? named.map((n) => [n, urls.get(n)!]) : [...urls];
  for (const w of words) if (!urls.has(w)) targets.push([w, w]);
  for (const [name, url] of targets) {
    const local = localPathOf(url);
    if (local !== undefined && !(await localRemoteInside(repo, local, signal)))
      throw new ToolError("denied", {
        reason: "git_remote_outside",
        command: sub,
        path: repo.label,
        actual: name,
      });
  }
}
