import { currentBranch, defaultBranch, localBranches, originBranches } from "./repo.js";
import type { GitRepository } from "./repository-gate.js";
import { gitQuery } from "./runner.js";

const MAX_DISTANCE = 20;
const MAX_CANDIDATES = 60;

/**
 * The branch the current one most likely grew from: among the other local branches and origin/* refs, the
 * one whose merge-base with HEAD is fewest commits back (at most 20); ties favour the default branch.
 */
export async function nearestParentBranch(repo: GitRepository): Promise<string | undefined> {
  const current = await currentBranch(repo);
  if (!current) return undefined;
  const def = await defaultBranch(repo);
  const candidates = [
    ...(await localBranches(repo)).filter((b) => b !== current),
    ...(await originBranches(repo)).filter((b) => b !== `origin/${current}`),
  ].slice(0, MAX_CANDIDATES);
  let best: { name: string; distance: number } | undefined;
  for (const cand of candidates) {
    const mb = await gitQuery(repo, ["merge-base", "HEAD", cand]);
    if (!mb) continue;
    const n = Number.parseInt((await gitQuery(repo, ["rev-list", "--count", `${mb}..HEAD`])) ?? "", 10);
    if (!Number.isFinite(n) || n > MAX_DISTANCE) continue;
    const name = cand.startsWith("origin/") ? cand.slice("origin/".length) : cand;
    if (name === current) continue;
    if (!best || n < best.distance || (n === best.distance && name === def && best.name !== def))
      best = { name, distance: n };
  }
  return best?.name;
}

/** The issue number a branch name starts with (`123-fix-login` → 123). */
export function issueNumberFromBranch(branch: string): number | undefined {
  const m = /^(\d+)-/.exec(branch);
  return m ? Number.parseInt(m[1]!, 10) : undefined;
}
