import { z } from "zod";
import { describeGitHubError } from "../../core/github/errors.js";
import { commentOnIssue, createIssue, editIssue, listIssues, viewIssue } from "../../core/github/issues.js";
import { listLabels } from "../../core/github/labels.js";
import { createPullRequest, viewPullRequest } from "../../core/github/pulls.js";
import { searchIssues } from "../../core/github/search.js";
import { type RepoTarget, resolveTarget } from "../../core/github/target.js";
import { defineTool, plainReply, type ToolContext, type ToolReply } from "../tool.js";
import { boundReply } from "./reply-bound.js";

const referenceName = z
  .string()
  .nullable()
  .optional()
  .describe("Act on this reference project's repository instead of the workspace repository");
const strList = z.array(z.string()).nullable().optional();

/** Runs a GitHub operation; every failure becomes an `Error: ...` text reply, never a thrown error. */
async function github(
  ctx: ToolContext,
  reference: string | null | undefined,
  op: (t: RepoTarget) => Promise<string>,
): Promise<ToolReply> {
  let apiBase = "GitHub API";
  try {
    const t = await resolveTarget({
      roots: ctx.ws.roots,
      urlOnlyReferences: ctx.ws.urlOnlyReferences,
      referenceName: reference,
      env: ctx.config.githubEnv,
      log: { warn: (m) => ctx.log.warn(m) },
    });
    apiBase = t.apiBase;
    const text = await op(t);
    return plainReply(boundReply(text, ctx.config.maxOutputBytes));
  } catch (err) {
    const msg = describeGitHubError(err, apiBase);
    ctx.log.warn({ err: msg }, "GitHub call failed");
    return plainReply(`Error: ${msg}`);
  }
}

const READ = { readOnlyHint: true, openWorldHint: true } as const;

export const githubIssueView = defineTool({
  name: "github_issue_view",
  title: "View GitHub issue",
  description:
    "Show a GitHub issue with its comments. Text from authors who are not OWNER/MEMBER/COLLABORATOR (or in the " +
    "user's trusted_commenters) is withheld.",
  input: z.object({
    number: z.number().describe("Issue number"),
    include_comments: z.boolean().optional().default(true),
    max_lines: z.number().int().optional().default(200),
    reference_name: referenceName,
  }),
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      viewIssue(t, { number: a.number, includeComments: a.include_comments, maxLines: a.max_lines }),
    ),
});

export const githubIssueList = defineTool({
  name: "github_issue_list",
  title: "List GitHub issues",
  description:
    "List issues (not pull requests) of the repository: state open/closed/all, labels (all must match), assignee (login, 'none' or '*'), since (ISO date).",
  input: z.object({
    state: z.string().optional().default("open"),
    labels: strList,
    assignee: z.string().nullable().optional(),
    since: z.string().nullable().optional(),
    max_results: z.number().int().optional().default(30),
    reference_name: referenceName,
  }),
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      listIssues(t, {
        state: a.state,
        labels: a.labels,
        assignee: a.assignee,
        since: a.since,
        maxResults: a.max_results,
      }),
    ),
});

export const githubPrView = defineTool({
  name: "github_pr_view",
  title: "View GitHub pull request",
  description:
    "Show a pull request; with include_comments also its reviews, comments and inline review comments. Text " +
    "from untrusted authors is withheld.",
  input: z.object({
    number: z.number().describe("Pull request number"),
    include_comments: z.boolean().optional().default(false),
    max_lines: z.number().int().optional().default(200),
    reference_name: referenceName,
  }),
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      viewPullRequest(t, { number: a.number, includeComments: a.include_comments, maxLines: a.max_lines }),
    ),
});

export const githubSearch = defineTool({
  name: "github_search",
  title: "Search GitHub issues and pull requests",
  description:
    "Search issues (default) or pull requests (add is:pr) of the repository with GitHub's search syntax; " +
    "state, labels (AND) and assignee are added as qualifiers.",
  input: z.object({
    query: z.string(),
    state: z.string().nullable().optional(),
    labels: strList,
    assignee: z.string().nullable().optional(),
    sort: z.string().nullable().optional(),
    order: z.string().nullable().optional(),
    max_results: z.number().int().optional().default(30),
    reference_name: referenceName,
  }),
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      searchIssues(t, {
        query: a.query,
        state: a.state,
        labels: a.labels,
        assignee: a.assignee,
        sort: a.sort,
        order: a.order,
        maxResults: a.max_results,
      }),
    ),
});

export const githubIssueCreate = defineTool({
  name: "github_issue_create",
  title: "Create GitHub issue",
  description:
    "Create an issue. Labels must exist in the repository; status-* workflow labels are refused. '@me' in " +
    "assignees is the token's user. A '### Base Branch' section must be one line.",
  input: z.object({
    title: z.string(),
    body: z.string().optional().default(""),
    labels: strList,
    assignees: strList,
    reference_name: referenceName,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      createIssue(t, {
        title: a.title,
        body: a.body,
        labels: a.labels,
        assignees: a.assignees,
        enforceBaseBranchFormat: ctx.config.enforceBaseBranchFormat,
      }),
    ),
});

export const githubIssueEdit = defineTool({
  name: "github_issue_edit",
  title: "Edit GitHub issue",
  description:
    "Edit an issue: title, body, state (open/closed), add/remove labels, add assignees. Reports exactly what " +
    "was applied. status-* labels are refused; added labels must exist.",
  input: z.object({
    number: z.number(),
    title: z.string().nullable().optional(),
    body: z.string().nullable().optional(),
    add_labels: strList,
    remove_labels: strList,
    add_assignees: strList,
    state: z.string().nullable().optional(),
    reference_name: referenceName,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      editIssue(t, {
        number: a.number,
        title: a.title,
        body: a.body,
        addLabels: a.add_labels,
        removeLabels: a.remove_labels,
        addAssignees: a.add_assignees,
        state: a.state,
        enforceBaseBranchFormat: ctx.config.enforceBaseBranchFormat,
      }),
    ),
});

export const githubIssueComment = defineTool({
  name: "github_issue_comment",
  title: "Comment on GitHub issue",
  description: "Add a comment to an issue or pull request.",
  input: z.object({ number: z.number(), body: z.string(), reference_name: referenceName }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) => github(ctx, a.reference_name, (t) => commentOnIssue(t, a.number, a.body)),
});

export const githubLabelList = defineTool({
  name: "github_label_list",
  title: "List GitHub labels",
  description:
    "List the repository's labels, optionally filtered by a case-insensitive substring of name or description.",
  input: z.object({ search: z.string().nullable().optional(), reference_name: referenceName }),
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) => github(ctx, a.reference_name, (t) => listLabels(t, a.search)),
});

export const githubPrCreate = defineTool({
  name: "github_pr_create",
  title: "Create GitHub pull request",
  description:
    "Open a pull request in the workspace repository. head defaults to the current branch, base to the " +
    "default branch. Does not push.",
  input: z.object({
    title: z.string(),
    body: z.string().optional().default(""),
    head: z.string().nullable().optional(),
    base: z.string().nullable().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, undefined, (t) =>
      createPullRequest(t, { title: a.title, body: a.body, head: a.head, base: a.base }),
    ),
});
