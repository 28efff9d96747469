import { currentBranch, defaultBranch, localBranches, originBranches } from "./repo.js";
import { gitQuery, repoGuard } from "./runner.js";

const MAX_DISTANCE = 20;
const MAX_CANDIDATES = 60;

/**
 * The branch the current one most likely grew from: among the other local branches and origin/* refs, the
 * one whose merge-base with HEAD is fewest commits back (at most 20); ties favour the default branch.
 */
export async function nearestParentBranch(dir: string): Promise<string | undefined> {
  // One reading of the repository's config for the whole search (up to 2 × 60 queries).
  const guard = await repoGuard(dir).catch(() => undefined);
  if (!guard) return undefined;
  const current = await currentBranch(dir, guard);
  if (!current) return undefined;
  const def = await defaultBranch(dir, guard);
  const candidates = [
    ...(await localBranches(dir, guard)).filter((b) => b !== current),
    ...(await originBranches(dir, guard)).filter((b) => b !== `origin/${current}`),
  ].slice(0, MAX_CANDIDATES);
  let best: { name: string; distance: number } | undefined;
  for (const cand of candidates) {
    const mb = await gitQuery(dir, ["merge-base", "HEAD", cand], guard);
    if (!mb) continue;
    const n = Number.parseInt((await gitQuery(dir, ["rev-list", "--count", `${mb}..HEAD`], guard)) ?? "", 10);
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
