import { issueNumberFromBranch } from "../../git/base-branch.js";
import { FETCH_LOCKS } from "../../git/commands.js";
import { countCommits, currentBranch, refExists } from "../../git/repo.js";
import { type GitRepository, openRepository } from "../../git/repository-gate.js";
import { runGit } from "../../git/runner.js";
import type { Root, Workspace } from "../../workspace.js";
import { detectBaseBranch } from "../base-branch.js";
import { describeGitHubError } from "../errors.js";
import { type RepoTarget, repoParams } from "../target.js";
import { labelNames } from "../text.js";
import { type CiReport, ciProbe, collectCi } from "./ci.js";
import { collectFeedback, type Feedback, renderFeedback } from "./feedback.js";
import { readTaskTracker, type TaskReport } from "./tasks.js";

export interface BranchStatusParams {
  maxLogLines: number;
  ciTimeout: number;
  prTimeout: number;
  failOnReviews: boolean;
  signal?: AbortSignal;
  /** Poll intervals (ms); mcp-workspace polls CI every 15 s and the PR every 20 s. */
  ciIntervalMs?: number;
  prIntervalMs?: number;
}

interface PrInfo {
  number: number;
  mergeable: boolean | null;
  mergeableState?: string;
}

interface Rebase {
  behind?: number;
  error?: string;
  overridden?: boolean;
}

const BLOCKING_STATES = new Set(["unstable", "blocked", "dirty"]);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}

/** Polls `probe` until it reports done, the deadline passes, or it fails three times in a row. */
async function poll<T>(
  timeoutS: number,
  intervalMs: number,
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  signal?: AbortSignal,
): Promise<{ value?: T; seconds: number }> {
  const start = Date.now();
  const deadline = start + timeoutS * 1000;
  let errors = 0;
  let value: T | undefined;
  for (;;) {
    try {
      value = await probe();
      errors = 0;
      if (done(value)) break;
    } catch {
      if (++errors >= 3) break;
    }
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) break;
    await sleep(Math.min(intervalMs, left), signal);
  }
  return { value, seconds: Math.round((Date.now() - start) / 1000) };
}

async function findOpenPr(t: RepoTarget, branch: string): Promise<number | undefined> {
  const prs = (
    await t.gh.rest.pulls.list({
      ...repoParams(t),
      state: "open",
      head: `${t.id.owner}:${branch}`,
      per_page: 5,
    })
  ).data;
  return prs[0]?.number;
}

async function rebaseStatus(repo: GitRepository, base: string): Promise<Rebase> {
  const fetch = await runGit(repo, ["fetch", "--quiet", ...FETCH_LOCKS, "origin"], {
    timeoutMs: 60_000,
  }).catch(() => undefined);
  if (fetch?.code !== 0 || fetch.timedOut) return { error: "failed to fetch from remote" };
  if (!(await refExists(repo, `refs/remotes/origin/${base}`)))
    return { error: `target branch 'origin/${base}' not found` };
  const n = await countCommits(repo, `HEAD..origin/${base}`);
  return n === undefined ? { error: "could not count commits" } : { behind: n };
}

/** The rebase detail for the Tasks/Rebase reason (mcp-workspace's wording). */
export function rebaseText(r: Rebase): string {
  if (r.error) return `error: ${r.error}`;
  if (r.overridden) return "Behind base branch but PR is mergeable (squash-merge safe)";
  if (r.behind === 0) return "up-to-date";
  return r.behind === 1 ? "1 commit behind" : `${r.behind} commits behind`;
}

/** mcp-workspace's check_branch_status report, with commenter trust applied to the review feedback. */
export async function branchStatus(
  ws: Workspace,
  project: Root,
  target: RepoTarget | undefined,
  targetError: string | undefined,
  p: BranchStatusParams,
): Promise<string> {
  // A repository the gate refuses (data outside the root) reads as no branch at all.
  const repo = await openRepository(project).catch(() => undefined);
  const branch = repo && (await currentBranch(repo));
  if (!repo || !branch) return noBranchReport(p.failOnReviews);
  const waited = target ? await waitForCiAndPr(repo, target, branch, p) : {};
  const base = (await detectBaseBranch(repo, target)).branch ?? "main";
  const tasks: TaskReport = await readTaskTracker(ws, project);
  const remote: RemoteFacts = target
    ? await fromGitHub(target, branch, p.maxLogLines)
    : {
        ci: { status: "UNAVAILABLE", failedJobs: [], error: targetError },
        label: "unknown",
        prLookupFailed: false,
      };
  const rebase = await rebaseStatus(repo, base);
  if ((rebase.behind ?? 0) > 0 && remote.pr?.mergeable === true) rebase.overridden = true;
  const facts: Facts = { branch, base, tasks, rebase, hasTarget: target !== undefined, ...remote };
  const recs = [...(waited.rec ? [waited.rec] : []), ...recommendations(facts)];
  return renderReport(facts, recs, waited.line, p.failOnReviews);
}

/** What GitHub says about the branch (CI, the issue's status label, the open PR and its reviews). */
interface RemoteFacts {
  ci: CiReport;
  label: string;
  pr?: PrInfo;
  prLookupFailed: boolean;
  feedback?: Feedback;
}

interface Facts extends RemoteFacts {
  branch: string;
  base: string;
  tasks: TaskReport;
  rebase: Rebase;
  hasTarget: boolean;
}

function noBranchReport(failOnReviews: boolean): string {
  return [
    "Branch: unknown | Base: unknown",
    "Branch Status: CI=UNKNOWN, Rebase=UNKNOWN, Tasks=N_A (no current branch: detached HEAD or not a git repository)",
    ...(failOnReviews ? ["Review Gate: UNKNOWN (undeterminable)"] : []),
    "GitHub Label: unknown",
    "Recommendations: Check out a branch",
  ].join("\n");
}

/** Waits (when asked) for CI to finish and a PR to appear: the report's Wait line, or why it could not. */
async function waitForCiAndPr(
  repo: GitRepository,
  target: RepoTarget,
  branch: string,
  p: BranchStatusParams,
): Promise<{ line?: string; rec?: string }> {
  if (!(p.ciTimeout > 0 || p.prTimeout > 0)) return {};
  if (!(await refExists(repo, `refs/remotes/origin/${branch}`)))
    return { rec: "Push branch to remote before waiting for PR or CI" };
  const [ci, pr] = await Promise.all([
    poll(
      Math.max(0, p.ciTimeout),
      p.ciIntervalMs ?? 15_000,
      () => ciProbe(target, branch),
      (v) => v === "ok" || v === "fail",
      p.signal,
    ),
    poll(
      Math.max(0, p.prTimeout),
      p.prIntervalMs ?? 20_000,
      () => findOpenPr(target, branch),
      (v) => v !== undefined,
      p.signal,
    ),
  ]);
  const ciWord = ci.value === "ok" ? "ok" : ci.value === "fail" ? "fail" : "pending";
  return {
    line: `Wait: ci=${ci.seconds}s ${ciWord}, pr=${pr.seconds}s ${pr.value !== undefined ? "ok" : "missing"}`,
  };
}

async function fromGitHub(target: RepoTarget, branch: string, maxLogLines: number): Promise<RemoteFacts> {
  let ci: CiReport;
  try {
    ci = await collectCi(target, branch, maxLogLines);
  } catch (err) {
    ci = { status: "UNKNOWN", failedJobs: [], error: describeGitHubError(err, target.apiBase) };
  }
  const out: RemoteFacts = { ci, label: await statusLabel(target, branch), prLookupFailed: false };
  try {
    const n = await findOpenPr(target, branch);
    if (n !== undefined) {
      const d = (await target.gh.rest.pulls.get({ ...repoParams(target), pull_number: n })).data;
      out.pr = { number: n, mergeable: d.mergeable, mergeableState: d.mergeable_state };
      out.feedback = await collectFeedback(target, n);
    }
  } catch {
    out.prLookupFailed = true;
  }
  return out;
}

/** The `status-*` label of the issue the branch is named after ("unknown" without one). */
async function statusLabel(target: RepoTarget, branch: string): Promise<string> {
  const issueNo = issueNumberFromBranch(branch);
  if (issueNo === undefined) return "unknown";
  try {
    const issue = (await target.gh.rest.issues.get({ ...repoParams(target), issue_number: issueNo })).data;
    return labelNames(issue.labels).find((l) => l.toLowerCase().startsWith("status-")) ?? "unknown";
  } catch {
    return "unknown"; // No such issue.
  }
}

/** The branch is behind its base and no mergeable PR makes that safe. */
function isBehind(rebase: Rebase): boolean {
  return (rebase.behind ?? 0) > 0 && !rebase.overridden;
}

function blockingState(pr: PrInfo | undefined): boolean {
  return pr?.mergeableState !== undefined && BLOCKING_STATES.has(pr.mergeableState);
}

/** Recommendations, in mcp-workspace's order. */
function recommendations(f: Facts): string[] {
  const { ci, tasks, rebase, feedback, pr, base } = f;
  const recs: string[] = [];
  if (ci.status === "FAILED") {
    recs.push(
      ci.failedJobs.length
        ? `Fix failing job(s): ${ci.failedJobs.map((j) => j.name).join(", ")}`
        : "Fix CI test failures",
    );
    recs.push("Check CI error details above");
  } else if (ci.status === "PENDING") recs.push("Wait for CI to complete");
  else if (ci.status === "NOT_CONFIGURED") recs.push("Configure CI pipeline");
  if (ci.status === "UNAVAILABLE")
    recs.push("Set a GitHub token (no GitHub token; set GITHUB_TOKEN or add to config.toml)");
  if (tasks.status === "INCOMPLETE") recs.push(`Complete remaining tasks (${tasks.reason})`);
  else if (tasks.status === "ERROR") recs.push(tasks.fix ?? `Fix task tracker: ${tasks.reason}`);
  const behind = isBehind(rebase);
  if (behind && !tasks.blocking && ci.status !== "FAILED") recs.push(`Rebase onto origin/${base}`);
  if (feedback?.blocking) recs.push("Address review comments");
  const stateBlocks = blockingState(pr);
  if (stateBlocks) recs.push(`Not ready to merge (GitHub mergeable_state: ${pr!.mergeableState})`);
  const ciOk = ci.status === "PASSED" || ci.status === "NOT_CONFIGURED";
  if (ciOk && !tasks.blocking && !feedback?.blocking && !stateBlocks && !behind)
    recs.push(
      (rebase.behind ?? 0) > 0 && rebase.overridden ? "Ready to merge (squash-merge safe)" : "Ready to merge",
    );
  return recs;
}

function renderReport(
  f: Facts,
  recs: string[],
  waitLine: string | undefined,
  failOnReviews: boolean,
): string {
  const { ci, feedback } = f;
  if (recs.length === 0) recs.push("Continue with current work");
  const statusLine = statusLineOf(f);
  const out = [`Branch: ${f.branch} | Base: ${f.base}`, `Branch Status: ${statusLine}`];
  if (failOnReviews) out.push(`Review Gate: ${reviewGate(f)}`);
  if (waitLine) out.push(waitLine);
  out.push(`GitHub Label: ${f.label}`);
  out.push(`Recommendations: ${recs.join(", ")}`);
  if (feedback) out.push("", renderFeedback(feedback));
  if (ci.error && ci.status === "UNKNOWN") out.push("", `CI error: ${ci.error}`);
  if (ci.details)
    out.push("", "CI Errors:", ci.details, "", "---", `Summary: ${statusLine} | Action: ${recs.join(", ")}`);
  return out.join("\n");
}

function statusLineOf(f: Facts): string {
  const { ci, rebase, tasks, pr } = f;
  const rebaseWord = rebase.error
    ? `UNKNOWN (${rebaseText(rebase)})`
    : isBehind(rebase)
      ? `BEHIND (${rebaseText(rebase)})`
      : "UP_TO_DATE";
  const prPart = pr
    ? `, PR=#${pr.number}, Mergeable=${pr.mergeable === null ? "None" : pr.mergeable ? "True" : "False"}${pr.mergeableState ? `, Mergeable_State=${pr.mergeableState}` : ""}`
    : f.hasTarget && !f.prLookupFailed
      ? ", PR=NOT_FOUND"
      : "";
  const noToken = ci.status === "UNAVAILABLE";
  return `CI=${ci.status}, Rebase=${rebaseWord}, Tasks=${tasks.status} (${tasks.reason})${noToken ? " (no GitHub token; set GITHUB_TOKEN or add to config.toml)" : ""}${prPart}`;
}

function reviewGate(f: Facts): string {
  const { ci, feedback } = f;
  if (ci.status === "UNAVAILABLE") return "UNKNOWN (no token)";
  if (
    ci.status === "UNKNOWN" ||
    f.prLookupFailed ||
    feedback?.threadsUnavailable ||
    feedback?.alertsUnavailable
  )
    return "UNKNOWN (undeterminable)";
  if (feedback?.blocking) return "BLOCKED (reviews)";
  return "clean";
}
