import { issueNumberFromBranch, nearestParentBranch } from "../git/base-branch.js";
import { currentBranch, defaultBranch } from "../git/repo.js";
import type { GitRepository } from "../git/repository-gate.js";
import { baseBranchFromBody, baseBranchSection } from "./base-branch-section.js";
import { type RepoTarget, repoParams } from "./target.js";

export interface BaseBranchResult {
  branch?: string;
  source?: "issue" | "pr" | "merge-base" | "default";
  warnings: string[];
}

/**
 * mcp-workspace's detection order: the linked issue's "Base Branch" section, the open PR's base, the nearest
 * parent branch by merge-base, the default branch. GitHub steps are skipped when `target` is undefined.
 */
export async function detectBaseBranch(repo: GitRepository, target?: RepoTarget): Promise<BaseBranchResult> {
  const warnings: string[] = [];
  const branch = await currentBranch(repo);
  if (!branch) return { warnings };
  const n = issueNumberFromBranch(branch);
  if (target && n !== undefined) {
    try {
      const issue = (await target.gh.rest.issues.get({ ...repoParams(target), issue_number: n })).data;
      const base = baseBranchFromBody(issue.body);
      if (base) return { branch: base, source: "issue", warnings };
      const section = baseBranchSection(issue.body);
      if (section?.includes("\n"))
        warnings.push(`Issue #${n} has malformed base branch: ${JSON.stringify(section)}`);
    } catch {
      // Not found or not reachable: fall through to the next source.
    }
  }
  if (target) {
    try {
      const prs = (
        await target.gh.rest.pulls.list({
          ...repoParams(target),
          state: "open",
          head: `${target.id.owner}:${branch}`,
          per_page: 5,
        })
      ).data;
      if (prs[0]) return { branch: prs[0].base.ref, source: "pr", warnings };
    } catch {
      // fall through
    }
  }
  const parent = await nearestParentBranch(repo);
  if (parent) return { branch: parent, source: "merge-base", warnings };
  const def = await defaultBranch(repo);
  if (def) return { branch: def, source: "default", warnings };
  return { warnings };
}
