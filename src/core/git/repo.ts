import { namesOf } from "../root.js";
import { lfPieces } from "../text/lines.js";
import type { GitRepository } from "./repository-gate.js";
import { gitQuery } from "./runner.js";

/** True when the repository's work tree starts at its root (mcp-workspace does no parent search). */
export function isRepoRoot(repo: GitRepository): boolean {
  return namesOf(repo.root).equal(repo.topLevel, repo.cwd);
}

/** The checked-out branch, or undefined on a detached HEAD. */
export async function currentBranch(repo: GitRepository): Promise<string | undefined> {
  const b = await gitQuery(repo, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  return b || undefined;
}

/** The URL of a remote as configured (no insteadOf rewriting), or undefined. */
export async function remoteUrl(repo: GitRepository, name = "origin"): Promise<string | undefined> {
  const url = await gitQuery(repo, ["config", "--get", `remote.${name}.url`]);
  return url || undefined;
}

/** The default branch as this clone sees it: origin/HEAD's target, else local main, else master. */
export async function defaultBranch(repo: GitRepository): Promise<string | undefined> {
  const head = await gitQuery(repo, ["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"]);
  if (head?.startsWith("refs/remotes/origin/")) return head.slice("refs/remotes/origin/".length);
  for (const name of ["main", "master"]) {
    if (await refExists(repo, `refs/heads/${name}`)) return name;
  }
  return undefined;
}

export async function refExists(repo: GitRepository, ref: string): Promise<boolean> {
  return (await gitQuery(repo, ["rev-parse", "--verify", "--quiet", "--end-of-options", ref])) !== undefined;
}

/** Local branch names (short form). */
export async function localBranches(repo: GitRepository): Promise<string[]> {
  const out = await gitQuery(repo, ["for-each-ref", "--format=%(refname:short)", "refs/heads/"]);
  return out ? lfPieces(out).filter(Boolean) : [];
}

/** Remote-tracking refs under origin (short form, e.g. `origin/main`), without origin/HEAD. */
export async function originBranches(repo: GitRepository): Promise<string[]> {
  const out = await gitQuery(repo, ["for-each-ref", "--format=%(refname:short)", "refs/remotes/origin/"]);
  return out ? lfPieces(out).filter((b) => b && b !== "origin/HEAD" && b !== "origin") : [];
}

/** Number of commits in `range` (e.g. `HEAD..origin/main`), or undefined when git cannot count them. */
export async function countCommits(repo: GitRepository, range: string): Promise<number | undefined> {
  const out = await gitQuery(repo, ["rev-list", "--count", range, "--"]);
  if (out === undefined) return undefined;
  const n = Number.parseInt(out, 10);
  return Number.isFinite(n) ? n : undefined;
}
