import { currentBranch, defaultBranch } from "../git/repo.js";
import { describeGitHubError, GitHubToolError, statusOf } from "./errors.js";
import { checkIssueNumber, notFoundOr } from "./issues.js";
import { type RepoTarget, repoParams } from "./target.js";
import { pyBool, truncateOutput } from "./text.js";
import { isTrusted, WITHHELD_BODY, withheldLine } from "./trust.js";

const MAX_ITEMS = 1000;

export interface PrViewParams {
  number: number;
  includeComments: boolean;
  maxLines: number;
}

export async function viewPullRequest(t: RepoTarget, p: PrViewParams): Promise<string> {
  checkIssueNumber(p.number, "PR number must be a positive integer");
  const ref = { ...repoParams(t), pull_number: p.number };
  const pr = await t.gh.rest.pulls
    .get(ref)
    .then((r) => r.data)
    .catch((e) => notFoundOr(t, e, `PR #${p.number}`));
  const allow = t.settings.trustedCommenters;
  let withheld = 0;
  const blocks = [
    `# PR #${pr.number}: ${pr.title}`,
    `State: ${pr.state} | ${pr.head.ref} → ${pr.base.ref} | Draft: ${pyBool(pr.draft)} | Merged: ${pyBool(pr.merged)}`,
  ];
  if (isTrusted(pr.user?.login, pr.author_association, allow))
    blocks.push(pr.body?.trim() || "(no description)");
  else {
    withheld++;
    blocks.push(WITHHELD_BODY);
  }
  if (p.includeComments) {
    const cap = <T>(res: { data: T[] }, done: () => void) => {
      if (res.data.length >= MAX_ITEMS) done();
      return res.data;
    };
    const [reviews, comments, inline] = await Promise.all([
      t.gh.paginate(t.gh.rest.pulls.listReviews, { ...ref, per_page: 100 }, cap),
      t.gh.paginate(
        t.gh.rest.issues.listComments,
        { ...repoParams(t), issue_number: p.number, per_page: 100 },
        cap,
      ),
      t.gh.paginate(t.gh.rest.pulls.listReviewComments, { ...ref, per_page: 100 }, cap),
    ]);
    const okReviews = reviews.filter((r) => isTrusted(r.user?.login, r.author_association, allow));
    const okComments = comments.filter((c) => isTrusted(c.user?.login, c.author_association, allow));
    const okInline = inline.filter((c) => isTrusted(c.user?.login, c.author_association, allow));
    withheld +=
      reviews.length -
      okReviews.length +
      comments.length -
      okComments.length +
      inline.length -
      okInline.length;
    if (okReviews.length) {
      blocks.push("## Reviews");
      for (const r of okReviews)
        blocks.push(`**${r.user?.login ?? "ghost"}**: ${r.state}${r.body ? `\n${r.body}` : ""}`);
    }
    blocks.push(`## Comments (${okComments.length})`);
    for (const c of okComments)
      blocks.push(`**${c.user?.login ?? "ghost"}** (${c.created_at}):\n${c.body ?? ""}`);
    blocks.push(`## Inline Review Comments (${okInline.length})`);
    if (okInline.length)
      blocks.push(
        okInline
          .map(
            (c) => `${c.path}:${c.line ?? c.original_line ?? "?"} (${c.user?.login ?? "ghost"}): "${c.body}"`,
          )
          .join("\n"),
      );
  }
  if (withheld > 0) blocks.push(withheldLine(withheld));
  return truncateOutput(blocks.join("\n\n"), p.maxLines);
}

/** git check-ref-format's rules, as far as a PR's head/base names need them. */
export function isValidBranchName(b: string): boolean {
  return !(
    !b ||
    /[~^:?*[\\\s\x00-\x1f\x7f]/.test(b) ||
    b.startsWith(".") ||
    b.endsWith(".") ||
    b.endsWith(".lock") ||
    b.endsWith("/") ||
    b.startsWith("/") ||
    b.startsWith("-") ||
    b.includes("..") ||
    b.includes("@{") ||
    b.includes("//")
  );
}

export interface PrCreateParams {
  title: string;
  body: string;
  head?: string | null;
  base?: string | null;
}

export async function createPullRequest(t: RepoTarget, p: PrCreateParams): Promise<string> {
  const title = p.title.trim();
  if (!title) throw new GitHubToolError("PR title cannot be empty");
  const head = p.head?.trim() || (t.repo ? await currentBranch(t.repo) : undefined);
  if (!head) throw new GitHubToolError("could not determine the current branch for head");
  const base = p.base?.trim() || (t.repo ? await defaultBranch(t.repo) : undefined);
  if (!base) throw new GitHubToolError("could not determine the repository default branch for base");
  for (const b of [head, base])
    if (!isValidBranchName(b)) throw new GitHubToolError(`invalid branch name: ${b}`);
  if (head === base) throw new GitHubToolError(`head and base are the same branch (${head})`);
  try {
    const pr = (await t.gh.rest.pulls.create({ ...repoParams(t), title, body: p.body, head, base })).data;
    return `Created PR #${pr.number} — ${pr.html_url}`;
  } catch (err) {
    const s = statusOf(err);
    if (s === 401 || s === 403) throw err;
    const why = describeGitHubError(err, t.apiBase);
    if ((err as { timedOut?: boolean })?.timedOut)
      throw new GitHubToolError(`${why} - the pull request may have been created; check before retrying`);
    throw new GitHubToolError(`PR creation failed - no pull request was created (${why})`);
  }
}
