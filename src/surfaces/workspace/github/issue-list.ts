import { z } from "zod";
import { listIssues } from "../../../core/github/issues.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, READ, referenceName, strList } from "./common.js";

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
  output: strOutput,
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
