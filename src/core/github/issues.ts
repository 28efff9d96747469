import { baseBranchFormatError } from "./base-branch-section.js";
import { describeGitHubError, GitHubToolError, shortReason, statusOf } from "./errors.js";
import { checkLabels, resolveAssignees } from "./labels.js";
import { type RepoTarget, refSuffix, repoParams } from "./target.js";
import { labelNames, listOr, truncateOutput } from "./text.js";
import { isTrusted, WITHHELD_BODY, withheldLine } from "./trust.js";

const MAX_COMMENTS = 1000;

export function checkIssueNumber(n: number, message = "Issue number must be a positive integer"): void {
  if (!Number.isInteger(n) || n < 1) throw new GitHubToolError(message);
}

/** A 404 on an item: the item is missing, unless the repository itself cannot be reached. */
export async function notFoundOr(t: RepoTarget, err: unknown, what: string): Promise<never> {
  if (statusOf(err) !== 404) throw err;
  try {
    await t.gh.rest.repos.get(repoParams(t));
  } catch (e) {
    if (statusOf(e) === 404) throw new GitHubToolError(`Could not access repository (tried ${t.apiBase})`);
    throw e;
  }
  throw new GitHubToolError(`${what} not found in ${t.fullName}`);
}

export interface IssueViewParams {
  number: number;
  includeComments: boolean;
  maxLines: number;
}

export async function viewIssue(t: RepoTarget, p: IssueViewParams): Promise<string> {
  checkIssueNumber(p.number);
  const issue = await t.gh.rest.issues
    .get({ ...repoParams(t), issue_number: p.number })
    .then((r) => r.data)
    .catch((e) => notFoundOr(t, e, `Issue #${p.number}`));
  const expected = `/repos/${t.fullName}`.toLowerCase();
  if (issue.repository_url && !issue.repository_url.toLowerCase().endsWith(expected))
    throw new GitHubToolError(
      `Issue #${p.number} was transferred: GitHub returned an issue from another repository`,
    );
  const allow = t.settings.trustedCommenters;
  let withheld = 0;
  const blocks = [
    `# #${issue.number}: ${issue.title}`,
    `State: ${issue.state} | Labels: ${listOr(labelNames(issue.labels), "none")} | Assignees: ${listOr(
      (issue.assignees ?? []).map((a) => a.login),
      "none",
    )}`,
  ];
  if (isTrusted(issue.user?.login, issue.author_association, allow))
    blocks.push(issue.body?.trim() || "(no description)");
  else {
    withheld++;
    blocks.push(WITHHELD_BODY);
  }
  if (p.includeComments) {
    const comments = await t.gh.paginate(
      t.gh.rest.issues.listComments,
      { ...repoParams(t), issue_number: p.number, per_page: 100 },
      (res, done) => {
        if (res.data.length >= MAX_COMMENTS) done();
        return res.data;
      },
    );
    const shown = comments.filter((c) => isTrusted(c.user?.login, c.author_association, allow));
    withheld += comments.length - shown.length;
    blocks.push(`## Comments (${shown.length})`);
    for (const c of shown) blocks.push(`**${c.user?.login ?? "ghost"}** (${c.created_at}):\n${c.body ?? ""}`);
  }
  if (withheld > 0) blocks.push(withheldLine(withheld));
  return truncateOutput(blocks.join("\n\n"), p.maxLines);
}

export interface IssueListParams {
  state: string;
  labels?: string[] | null;
  assignee?: string | null;
  since?: string | null;
  maxResults: number;
}

export async function listIssues(t: RepoTarget, p: IssueListParams): Promise<string> {
  const state = p.state.toLowerCase();
  if (!["open", "closed", "all"].includes(state))
    throw new GitHubToolError(`Invalid state: ${p.state}. Expected 'open', 'closed' or 'all'.`);
  if (!Number.isInteger(p.maxResults) || p.maxResults < 1)
    throw new GitHubToolError("max_results must be a positive integer");
  let since: string | undefined;
  if (p.since) {
    const d = new Date(p.since);
    if (Number.isNaN(d.getTime()))
      throw new GitHubToolError(`Invalid since value: ${p.since} (expected an ISO 8601 date)`);
    since = d.toISOString();
  }
  const found: { number: number; state: string; title: string; labels: string[] }[] = [];
  let more = false;
  const iter = t.gh.paginate.iterator(t.gh.rest.issues.listForRepo, {
    ...repoParams(t),
    state: state as "open" | "closed" | "all",
    ...(p.labels?.length ? { labels: p.labels.join(",") } : {}),
    ...(p.assignee ? { assignee: p.assignee } : {}),
    ...(since ? { since } : {}),
    per_page: Math.min(100, p.maxResults + 1),
  });
  outer: for await (const page of iter) {
    for (const i of page.data) {
      if (i.pull_request) continue;
      if (found.length >= p.maxResults) {
        more = true;
        break outer;
      }
      found.push({ number: i.number, state: i.state, title: i.title, labels: labelNames(i.labels) });
    }
  }
  if (found.length === 0) {
    await t.gh.rest.repos.get(repoParams(t)).catch((e) => {
      if (statusOf(e) === 404) throw new GitHubToolError(`Could not access repository (tried ${t.apiBase})`);
      throw e;
    });
    return "No issues found.";
  }
  const lines = found.map(
    (i) => `#${i.number} [${i.state}] ${i.title}${i.labels.length ? `  ${i.labels.join(", ")}` : ""}`,
  );
  if (more)
    lines.push(
      `\nShowing ${found.length} of ${found.length}+ issues. Pass a larger max_results to see more.`,
    );
  return lines.join("\n");
}

function issueBlock(
  head: string,
  issue: {
    number: number;
    html_url: string;
    state: string;
    labels: unknown;
    assignees?: { login: string }[] | null;
  },
): string {
  return [
    `${head} #${issue.number} — ${issue.html_url} (state: ${issue.state})`,
    `Labels: ${listOr(labelNames(issue.labels as never), "(none)")}`,
    `Assignees: ${listOr(
      (issue.assignees ?? []).map((a) => a.login),
      "(none)",
    )}`,
  ].join("\n");
}

export interface IssueCreateParams {
  title: string;
  body: string;
  labels?: string[] | null;
  assignees?: string[] | null;
  enforceBaseBranchFormat: boolean;
}

export async function createIssue(t: RepoTarget, p: IssueCreateParams): Promise<string> {
  const title = p.title.trim();
  if (!title) throw new GitHubToolError("Issue title cannot be empty");
  if (p.enforceBaseBranchFormat) {
    const bad = baseBranchFormatError(p.body);
    if (bad) throw new GitHubToolError(bad);
  }
  const labels = p.labels ?? [];
  await checkLabels(t, labels, []);
  const assignees = await resolveAssignees(t, p.assignees ?? []);
  let issue: Awaited<ReturnType<RepoTarget["gh"]["rest"]["issues"]["create"]>>["data"];
  try {
    issue = (
      await t.gh.rest.issues.create({
        ...repoParams(t),
        title,
        body: p.body,
        ...(labels.length ? { labels } : {}),
        ...(assignees.length ? { assignees } : {}),
      })
    ).data;
  } catch (err) {
    throw writeFailure(
      t,
      err,
      `issue creation failed - no issue was created${refSuffix(t)}`,
      "the issue may have been created",
    );
  }
  return [
    `Created issue #${issue.number} — ${issue.html_url}`,
    `Labels: ${listOr(labelNames(issue.labels), "(none)")}`,
    `Assignees: ${listOr(
      (issue.assignees ?? []).map((a) => a.login),
      "(none)",
    )}`,
  ].join("\n");
}

export interface IssueEditParams {
  number: number;
  title?: string | null;
  body?: string | null;
  addLabels?: string[] | null;
  removeLabels?: string[] | null;
  addAssignees?: string[] | null;
  state?: string | null;
  enforceBaseBranchFormat: boolean;
}

type IssueData = Awaited<ReturnType<RepoTarget["gh"]["rest"]["issues"]["get"]>>["data"];

/** One write of an edit, named by the parameter(s) it applies. */
interface EditStep {
  field: string;
  run: () => Promise<unknown>;
}

/** Applies an edit as a short series of writes and reports exactly which of them took effect. */
export async function editIssue(t: RepoTarget, p: IssueEditParams): Promise<string> {
  const scalars = checkedScalars(p);
  const add = p.addLabels ?? [];
  const remove = p.removeLabels ?? [];
  await checkLabels(t, add, remove);
  const assignees = await resolveAssignees(t, p.addAssignees ?? []);
  const ref = { ...repoParams(t), issue_number: p.number };
  let current: IssueData;
  try {
    current = (await t.gh.rest.issues.get(ref)).data;
  } catch (e) {
    if (statusOf(e) === 401 || statusOf(e) === 403) throw e;
    throw new GitHubToolError(
      `issue #${p.number} not found or not accessible (${shortReason(e)}) - no changes were made`,
    );
  }
  const present = new Map(labelNames(current.labels).map((l) => [l.toLowerCase(), l]));
  const steps: EditStep[] = [];
  const scalarFields = Object.keys(scalars);
  if (scalarFields.length)
    steps.push({
      field: scalarFields.join(", "),
      run: () => t.gh.rest.issues.update({ ...ref, ...scalars }),
    });
  if (add.length)
    steps.push({ field: "add_labels", run: () => t.gh.rest.issues.addLabels({ ...ref, labels: add }) });
  const toRemove = remove.map((l) => present.get(l.toLowerCase())).filter((l): l is string => !!l);
  for (const name of toRemove)
    steps.push({ field: "remove_labels", run: () => t.gh.rest.issues.removeLabel({ ...ref, name }) });
  if (assignees.length)
    steps.push({ field: "add_assignees", run: () => t.gh.rest.issues.addAssignees({ ...ref, assignees }) });

  const run = await runSteps(steps);
  let after: IssueData | undefined;
  let rereadError: unknown;
  try {
    after = (await t.gh.rest.issues.get(ref)).data;
  } catch (e) {
    rereadError = e;
  }
  if (run.failedAt < 0) return issueBlock("Updated issue", after ?? { ...current, ...scalars });
  return partialEditReport(p.number, steps, run, after, rereadError);
}

/** The edit's title, body and state, checked before anything is written. */
function checkedScalars(p: IssueEditParams): { title?: string; body?: string; state?: "open" | "closed" } {
  checkIssueNumber(p.number, `invalid issue number: ${p.number}`);
  const title = p.title == null ? undefined : p.title.trim();
  if (title !== undefined && !title) throw new GitHubToolError("Issue title cannot be empty");
  const state = p.state == null ? undefined : p.state.toLowerCase();
  if (state !== undefined && state !== "open" && state !== "closed")
    throw new GitHubToolError(`state must be 'open' or 'closed', got: ${p.state}`);
  if (p.body != null && p.enforceBaseBranchFormat) {
    const bad = baseBranchFormatError(p.body);
    if (bad) throw new GitHubToolError(bad);
  }
  return {
    ...(title !== undefined ? { title } : {}),
    ...(p.body != null ? { body: p.body } : {}),
    ...(state !== undefined ? { state: state as "open" | "closed" } : {}),
  };
}

interface StepsRun {
  /** Fields whose every write so far succeeded, in order. */
  applied: string[];
  /** The first failed write's index (-1: none failed) and its error. */
  failedAt: number;
  failure: unknown;
}

/** Runs the writes in order, stopping at the first that fails. */
async function runSteps(steps: readonly EditStep[]): Promise<StepsRun> {
  const applied: string[] = [];
  for (let i = 0; i < steps.length; i++) {
    try {
      await steps[i]!.run();
      if (!applied.includes(steps[i]!.field)) applied.push(steps[i]!.field);
    } catch (e) {
      return { applied, failedAt: i, failure: e };
    }
  }
  return { applied, failedAt: -1, failure: undefined };
}

/** What a failed edit did and did not change, from the issue as re-read afterwards (if it could be). */
function partialEditReport(
  number: number,
  steps: readonly EditStep[],
  run: StepsRun,
  after: IssueData | undefined,
  rereadError: unknown,
): string {
  const { applied, failedAt } = run;
  const why = shortReason(run.failure);
  if (!after) {
    const writes = steps.slice(0, failedAt + 1).map((s) => s.field);
    return `Error: edit of issue #${number} failed (${why}) and the issue could not be re-read: ${shortReason(rereadError)} - these changes may or may not have been applied: ${listOr(writes, "(none)")}`;
  }
  if (applied.length === 0)
    return `Error: edit of issue #${number} failed (${why}) - no changes were made; current state below\n${issueBlock("Issue", after)}`;
  const notApplied = [...new Set(steps.slice(failedAt).map((s) => s.field))].filter(
    (f) => !applied.includes(f),
  );
  return [
    `Warning: edit partially failed (${why}) — resulting state below`,
    `Applied: ${listOr(applied, "(none)")}`,
    `Not applied: ${listOr(notApplied, "(none)")}`,
    issueBlock("Updated issue", after),
  ].join("\n");
}

export async function commentOnIssue(t: RepoTarget, number: number, body: string): Promise<string> {
  checkIssueNumber(number);
  const text = body.trim();
  if (!text) throw new GitHubToolError("Comment body cannot be empty");
  try {
    const c = (await t.gh.rest.issues.createComment({ ...repoParams(t), issue_number: number, body: text }))
      .data;
    return `Added comment to issue #${number} — ${c.html_url}`;
  } catch (err) {
    throw writeFailure(
      t,
      err,
      `failed to add comment to issue #${number}${refSuffix(t)}`,
      "the comment may have been added",
    );
  }
}

/**
 * A failed single write: authentication problems pass through as they are; a timeout is reported as
 * uncertain (the write may have landed); anything else as the tool's failure message plus the reason.
 */
function writeFailure(t: RepoTarget, err: unknown, message: string, maybe: string): unknown {
  const s = statusOf(err);
  if (s === 401 || s === 403) return err;
  const why = describeGitHubError(err, t.apiBase);
  if ((err as { timedOut?: boolean })?.timedOut)
    return new GitHubToolError(`${why} - ${maybe}; check before retrying`);
  return new GitHubToolError(`${message} (${why})`);
}
