import { z } from "zod";
import { createIssue } from "../../../core/github/issues.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, referenceName, strList } from "./common.js";

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
  output: strOutput,
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
