import { z } from "zod";
import { branchStatus } from "../../core/github/branch-status/report.js";
import { describeGitHubError } from "../../core/github/errors.js";
import { type RepoTarget, resolveTarget } from "../../core/github/target.js";
import { defineTool } from "../tool.js";
import { boundedReply, projectRoot, strOutput, strReply } from "./common.js";

export const checkBranchStatus = defineTool({
  name: "check_branch_status",
  title: "Check branch status",
  description:
    "Is the current branch ready to merge? CI (with failed-step logs), rebase need, task tracker, status label, PR mergeability and review feedback, with recommendations. Waits up to ci_timeout s for CI and pr_timeout s for a PR; with fail_on_reviews a 'Review Gate:' line says whether reviews block.",
  input: z.object({
    max_log_lines: z.number().int().optional().default(300),
    ci_timeout: z.number().int().optional().default(300),
    pr_timeout: z.number().int().optional().default(0),
    fail_on_reviews: z.boolean().nullable().optional(),
  }),
  output: strOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  mutating: false,
  async handler(a, ctx) {
    const project = projectRoot(ctx);
    let target: RepoTarget | undefined;
    let targetError: string | undefined;
    try {
      target = await resolveTarget({
        roots: ctx.ws.roots,
        env: ctx.config.githubEnv,
        log: { warn: (m) => ctx.log.warn(m) },
      });
    } catch (err) {
      targetError = describeGitHubError(err, "GitHub API");
    }
    try {
      const text = await branchStatus(ctx.ws, project, target, targetError, {
        maxLogLines: Math.max(1, a.max_log_lines),
        ciTimeout: Math.max(0, a.ci_timeout),
        prTimeout: Math.max(0, a.pr_timeout),
        failOnReviews: a.fail_on_reviews ?? ctx.config.failOnReviews,
        signal: ctx.signal,
      });
      return boundedReply(ctx, text);
    } catch (err) {
      return strReply(`Error: ${describeGitHubError(err, target?.apiBase ?? "GitHub API")}`);
    }
  },
});
