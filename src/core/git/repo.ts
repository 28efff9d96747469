import fs from "node:fs/promises";
import path from "node:path";
import type { ConfigGuard } from "./config-trust.js";
import { gitQuery } from "./runner.js";

/** True when `dir` is itself the top of a git work tree (mcp-workspace does no parent search). */
export async function isRepoRoot(dir: string, guard?: ConfigGuard): Promise<boolean> {
  try {
    await fs.lstat(path.join(dir, ".git"));
  } catch {
    return false;
  }
  const top = await gitQuery(dir, ["rev-parse", "--show-toplevel"], guard);
  if (top === undefined) return false;
  try {
    return (await fs.realpath(top)) === (await fs.realpath(dir));
  } catch {
    return false;
  }
}

/** The checked-out branch, or undefined on a detached HEAD / outside a repository. */
export async function currentBranch(dir: string, guard?: ConfigGuard): Promise<string | undefined> {
  const b = await gitQuery(dir, ["symbolic-ref", "--quiet", "--short", "HEAD"], guard);
  return b || undefined;
}

/** Names of the configured remotes. */
export async function remoteNames(dir: string, guard?: ConfigGuard): Promise<string[]> {
  const out = await gitQuery(dir, ["remote"], guard);
  return out ? out.split("\n").filter(Boolean) : [];
}

/** The URL of a remote as configured (no insteadOf rewriting), or undefined. */
export async function remoteUrl(
  dir: string,
  name = "origin",
  guard?: ConfigGuard,
): Promise<string | undefined> {
  const url = await gitQuery(dir, ["config", "--get", `remote.${name}.url`], guard);
  return url || undefined;
}

/** The default branch as this clone sees it: origin/HEAD's target, else local main, else master. */
export async function defaultBranch(dir: string, guard?: ConfigGuard): Promise<string | undefined> {
  const head = await gitQuery(dir, ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"], guard);
  if (head?.startsWith("refs/remotes/origin/")) return head.slice("refs/remotes/origin/".length);
  for (const name of ["main", "master"]) {
    if (await refExists(dir, `refs/heads/${name}`, guard)) return name;
  }
  return undefined;
}

export async function refExists(dir: string, ref: string, guard?: ConfigGuard): Promise<boolean> {
  return (
    (await gitQuery(dir, ["rev-parse", "--verify", "--quiet", "--end-of-options", ref], guard)) !== undefined
  );
}

/** Local branch names (short form). */
export async function localBranches(dir: string, guard?: ConfigGuard): Promise<string[]> {
  const out = await gitQuery(dir, ["for-each-ref", "--format=%(refname:short)", "refs/heads/"], guard);
  return out ? out.split("\n").filter(Boolean) : [];
}

/** Remote-tracking refs under origin (short form, e.g. `origin/main`), without origin/HEAD. */
export async function originBranches(dir: string, guard?: ConfigGuard): Promise<string[]> {
  const out = await gitQuery(
    dir,
    ["for-each-ref", "--format=%(refname:short)", "refs/remotes/origin/"],
    guard,
  );
  return out ? out.split("\n").filter((b) => b && b !== "origin/HEAD" && b !== "origin") : [];
}

/** Number of commits in `range` (e.g. `HEAD..origin/main`), or undefined when git cannot count them. */
export async function countCommits(
  dir: string,
  range: string,
  guard?: ConfigGuard,
): Promise<number | undefined> {
  const out = await gitQuery(dir, ["rev-list", "--count", range, "--"], guard);
  if (out === undefined) return undefined;
  const n = Number.parseInt(out, 10);
  return Number.isFinite(n) ? n : undefined;
}
