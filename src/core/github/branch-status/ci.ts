import { lfPieces } from "../../text/lines.js";
import { type RepoTarget, repoParams } from "../target.js";

export type CiStatus = "PASSED" | "FAILED" | "PENDING" | "NOT_CONFIGURED" | "UNAVAILABLE" | "UNKNOWN";

export interface FailedJob {
  id: number;
  name: string;
  runUrl: string;
  step?: string;
}

export interface CiReport {
  status: CiStatus;
  failedJobs: FailedJob[];
  runUrl?: string;
  /** The failure summary with logs (FAILED only). */
  details?: string;
  error?: string;
}

const BAD = new Set(["failure", "cancelled", "timed_out", "startup_failure", "action_required"]);
const MAX_LOGGED_JOBS = 3;

/** The CI verdict for the newest commit that has workflow runs on `branch`. */
export async function collectCi(t: RepoTarget, branch: string, maxLogLines: number): Promise<CiReport> {
  const runs = (await t.gh.rest.actions.listWorkflowRunsForRepo({ ...repoParams(t), branch, per_page: 25 }))
    .data.workflow_runs;
  if (runs.length === 0) return { status: "NOT_CONFIGURED", failedJobs: [] };
  const sha = runs[0]!.head_sha;
  const latest = runs.filter((r) => r.head_sha === sha);
  let failedRun = false;
  let pending = false;
  for (const r of latest) {
    if (r.status !== "completed") pending = true;
    else if (r.conclusion && BAD.has(r.conclusion)) failedRun = true;
  }
  const failedJobs: FailedJob[] = [];
  let jobsMissing = false;
  for (const r of latest) {
    try {
      const jobs = (
        await t.gh.rest.actions.listJobsForWorkflowRun({ ...repoParams(t), run_id: r.id, per_page: 100 })
      ).data.jobs;
      for (const j of jobs) {
        if (j.conclusion && BAD.has(j.conclusion)) {
          const step = (j.steps ?? []).find((s) => s.conclusion && BAD.has(s.conclusion));
          failedJobs.push({ id: j.id, name: j.name, runUrl: r.html_url, step: step?.name });
        }
      }
    } catch {
      jobsMissing = true;
    }
  }
  let status: CiStatus;
  if (failedRun) status = "FAILED";
  else if (pending) status = "PENDING";
  else if (failedJobs.length > 0)
    status = "FAILED"; // a job failure masked by continue-on-error
  else if (jobsMissing) status = "PENDING";
  else if (
    latest.every(
      (r) => r.conclusion === "success" || r.conclusion === "skipped" || r.conclusion === "neutral",
    )
  )
    status = "PASSED";
  else status = "NOT_CONFIGURED";
  const report: CiReport = { status, failedJobs, runUrl: latest[0]!.html_url };
  if (status === "FAILED")
    report.details = await failureDetails(t, failedJobs, latest[0]!.html_url, maxLogLines);
  return report;
}

/** The latest run's state only, for polling: done (with success or not) or still running. */
export async function ciProbe(t: RepoTarget, branch: string): Promise<"ok" | "fail" | "pending" | "none"> {
  const runs = (await t.gh.rest.actions.listWorkflowRunsForRepo({ ...repoParams(t), branch, per_page: 25 }))
    .data.workflow_runs;
  if (runs.length === 0) return "none";
  const latest = runs.filter((r) => r.head_sha === runs[0]!.head_sha);
  if (latest.some((r) => r.status !== "completed")) return "pending";
  return latest.some((r) => r.conclusion && BAD.has(r.conclusion)) ? "fail" : "ok";
}

/** Drops the timestamp GitHub puts before every log line. */
export function stripTimestamps(log: string): string {
  return log.replace(/^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z ?/gm, "");
}

/** The `##[group]` section of the failed step (exact, prefix, then contains match), else groups with errors. */
export function failedStepLog(log: string, step: string | undefined): string {
  const lines = lfPieces(stripTimestamps(log));
  const groups: { title: string; lines: string[] }[] = [];
  let cur: { title: string; lines: string[] } | undefined;
  for (const l of lines) {
    const g = /^##\[group\](.*)$/.exec(l);
    if (g) {
      cur = { title: g[1]!.trim(), lines: [] };
      groups.push(cur);
    } else if (l.startsWith("##[endgroup]")) {
      // Output after endgroup still belongs to the step that opened the group.
    } else if (cur) cur.lines.push(l);
  }
  const pick = (f: (t: string) => boolean) => groups.filter((g) => f(g.title));
  if (step) {
    const s = step.toLowerCase();
    for (const found of [
      pick((t) => t.toLowerCase() === s),
      pick((t) => t.toLowerCase().startsWith(s) || s.startsWith(t.toLowerCase())),
      pick((t) => t.toLowerCase().includes(s) || s.includes(t.toLowerCase())),
    ])
      if (found.length) return found.map((g) => g.lines.join("\n")).join("\n");
  }
  const errs = groups.filter((g) => g.lines.some((l) => l.includes("##[error]")));
  if (errs.length) return errs.map((g) => `${g.title}\n${g.lines.join("\n")}`).join("\n");
  return lines.join("\n");
}

/** Keeps the first and last lines of a log within `budget` lines. */
export function budgetLines(text: string, budget: number): string {
  const lines = lfPieces(text.replace(/\n+$/, ""));
  if (lines.length <= budget) return lines.join("\n");
  const head = Math.max(1, Math.floor(budget / 3));
  const tail = Math.max(1, budget - head - 1);
  return [
    ...lines.slice(0, head),
    `... (${lines.length - head - tail} lines omitted) ...`,
    ...lines.slice(-tail),
  ].join("\n");
}

async function failureDetails(
  t: RepoTarget,
  jobs: FailedJob[],
  runUrl: string,
  maxLogLines: number,
): Promise<string> {
  const out = [
    "## CI Failure Summary",
    `Failed jobs (${jobs.length}): ${jobs.map((j) => j.name).join(", ")}`,
    `GitHub Actions: ${runUrl}`,
  ];
  let budget = maxLogLines;
  const skipped: FailedJob[] = [];
  for (const [i, j] of jobs.entries()) {
    if (i >= MAX_LOGGED_JOBS || budget <= 0) {
      skipped.push(j);
      continue;
    }
    let log = "";
    try {
      const res = await t.gh.rest.actions.downloadJobLogsForWorkflowRun({ ...repoParams(t), job_id: j.id });
      log = typeof res.data === "string" ? res.data : Buffer.from(res.data as ArrayBuffer).toString("utf8");
    } catch (err) {
      log = `(log unavailable: ${(err as Error).message})`;
    }
    const share = Math.max(10, Math.floor(budget / Math.max(1, Math.min(jobs.length, MAX_LOGGED_JOBS) - i)));
    const text = budgetLines(failedStepLog(log, j.step), share);
    budget -= lfPieces(text).length;
    out.push(
      "",
      `## Job: ${j.name}`,
      `View job: ${j.runUrl}/job/${j.id}`,
      `Failed step: ${j.step ?? "unknown"}`,
      text,
    );
  }
  if (skipped.length) {
    out.push("", "## Other failed jobs (logs truncated to save space)");
    for (const j of skipped) out.push(`- ${j.name}: ${j.runUrl}/job/${j.id}`);
  }
  return out.join("\n");
}
