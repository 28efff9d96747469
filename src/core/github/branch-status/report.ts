import { issueNumberFromBranch } from "../../git/base-branch.js";
import { FETCH_LOCKS } from "../../git/commands.js";
import { countCommits, currentBranch, refExists } from "../../git/repo.js";
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

async function rebaseStatus(dir: string, base: string): Promise<Rebase> {
  const fetch = await runGit(["fetch", "--quiet", ...FETCH_LOCKS, "origin"], {
    cwd: dir,
    timeoutMs: 60_000,
  }).catch(() => undefined);
  if (fetch?.code !== 0 || fetch.timedOut) return { error: "failed to fetch from remote" };
  if (!(await refExists(dir, `refs/remotes/origin/${base}`)))
    return { error: `target branch 'origin/${base}' not found` };
  const n = await countCommits(dir, `HEAD..origin/${base}`);
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
  const dir = project.real;
  const branch = await currentBranch(dir);
  if (!branch) {
    return [
      "Branch: unknown | Base: unknown",
      "Branch Status: CI=UNKNOWN, Rebase=UNKNOWN, Tasks=N_A (no current branch: detached HEAD or not a git repository)",
      ...(p.failOnReviews ? ["Review Gate: UNKNOWN (undeterminable)"] : []),
      "GitHub Label: unknown",
      "Recommendations: Check out a branch",
    ].join("\n");
  }
  const recs: string[] = [];
  let waitLine: string | undefined;
  if (target && (p.ciTimeout > 0 || p.prTimeout > 0)) {
    if (!(await refExists(dir, `refs/remotes/origin/${branch}`))) {
      recs.push("Push branch to remote before waiting for PR or CI");
    } else {
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
      waitLine = `Wait: ci=${ci.seconds}s ${ciWord}, pr=${pr.seconds}s ${pr.value !== undefined ? "ok" : "missing"}`;
    }
  }

  const base = (await detectBaseBranch(dir, target)).branch ?? "main";
  const tasks: TaskReport = await readTaskTracker(ws, project);
  let ci: CiReport;
  let label = "unknown";
  let pr: PrInfo | undefined;
  let prLookupFailed = false;
  let feedback: Feedback | undefined;
  if (!target) {
    ci = { status: "UNAVAILABLE", failedJobs: [], error: targetError };
  } else {
    try {
      ci = await collectCi(target, branch, p.maxLogLines);
    } catch (err) {
      ci = { status: "UNKNOWN", failedJobs: [], error: describeGitHubError(err, target.apiBase) };
    }
    const issueNo = issueNumberFromBranch(branch);
    if (issueNo !== undefined) {
      try {
        const issue = (await target.gh.rest.issues.get({ ...repoParams(target), issue_number: issueNo }))
          .data;
        label = labelNames(issue.labels).find((l) => l.toLowerCase().startsWith("status-")) ?? "unknown";
      } catch {
        // No such issue: the label stays unknown.
      }
    }
    try {
      const n = await findOpenPr(target, branch);
      if (n !== undefined) {
        const d = (await target.gh.rest.pulls.get({ ...repoParams(target), pull_number: n })).data;
        pr = { number: n, mergeable: d.mergeable, mergeableState: d.mergeable_state };
        feedback = await collectFeedback(target, n);
      }
    } catch {
      prLookupFailed = true;
    }
  }
  const rebase = await rebaseStatus(dir, base);
  if ((rebase.behind ?? 0) > 0 && pr?.mergeable === true) rebase.overridden = true;

  // Recommendations, in mcp-workspace's order.
  const noToken = ci.status === "UNAVAILABLE";
  if (ci.status === "FAILED") {
    recs.push(
      ci.failedJobs.length
        ? `Fix failing job(s): ${ci.failedJobs.map((j) => j.name).join(", ")}`
        : "Fix CI test failures",
    );
    recs.push("Check CI error details above");
  } else if (ci.status === "PENDING") recs.push("Wait for CI to complete");
  else if (ci.status === "NOT_CONFIGURED") recs.push("Configure CI pipeline");
  if (noToken) recs.push("Set a GitHub token (no GitHub token; set GITHUB_TOKEN or add to config.toml)");
  if (tasks.status === "INCOMPLETE") recs.push(`Complete remaining tasks (${tasks.reason})`);
  else if (tasks.status === "ERROR") recs.push(tasks.fix ?? `Fix task tracker: ${tasks.reason}`);
  const behind = (rebase.behind ?? 0) > 0 && !rebase.overridden;
  if (behind && !tasks.blocking && ci.status !== "FAILED") recs.push(`Rebase onto origin/${base}`);
  if (feedback?.blocking) recs.push("Address review comments");
  const stateBlocks = pr?.mergeableState !== undefined && BLOCKING_STATES.has(pr.mergeableState);
  if (stateBlocks) recs.push(`Not ready to merge (GitHub mergeable_state: ${pr!.mergeableState})`);
  const ciOk = ci.status === "PASSED" || ci.status === "NOT_CONFIGURED";
  if (ciOk && !tasks.blocking && !feedback?.blocking && !stateBlocks && !behind)
    recs.push(
      (rebase.behind ?? 0) > 0 && rebase.overridden ? "Ready to merge (squash-merge safe)" : "Ready to merge",
    );
  if (recs.length === 0) recs.push("Continue with current work");

  const rebaseWord = rebase.error
    ? `UNKNOWN (${rebaseText(rebase)})`
    : behind
      ? `BEHIND (${rebaseText(rebase)})`
      : "UP_TO_DATE";
  const prPart = pr
    ? `, PR=#${pr.number}, Mergeable=${pr.mergeable === null ? "None" : pr.mergeable ? "True" : "False"}${pr.mergeableState ? `, Mergeable_State=${pr.mergeableState}` : ""}`
    : target && !prLookupFailed
      ? ", PR=NOT_FOUND"
      : "";
  const statusLine = `CI=${ci.status}, Rebase=${rebaseWord}, Tasks=${tasks.status} (${tasks.reason})${noToken ? " (no GitHub token; set GITHUB_TOKEN or add to config.toml)" : ""}${prPart}`;
  const out = [`Branch: ${branch} | Base: ${base}`, `Branch Status: ${statusLine}`];
  if (p.failOnReviews) {
    let gate: string;
    if (noToken) gate = "UNKNOWN (no token)";
    else if (
      ci.status === "UNKNOWN" ||
      prLookupFailed ||
      feedback?.threadsUnavailable ||
      feedback?.alertsUnavailable
    )
      gate = "UNKNOWN (undeterminable)";
    else if (feedback?.blocking) gate = "BLOCKED (reviews)";
    else gate = "clean";
    out.push(`Review Gate: ${gate}`);
  }
  if (waitLine) out.push(waitLine);
  out.push(`GitHub Label: ${label}`);
  out.push(`Recommendations: ${recs.join(", ")}`);
  if (feedback) out.push("", renderFeedback(feedback));
  if (ci.error && ci.status === "UNKNOWN") out.push("", `CI error: ${ci.error}`);
  if (ci.details)
    out.push("", "CI Errors:", ci.details, "", "---", `Summary: ${statusLine} | Action: ${recs.join(", ")}`);
  return out.join("\n");
}
