import { z } from "zod";
import { editIssue } from "../../../core/github/issues.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, referenceName, strList } from "./common.js";

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
  output: strOutput,
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
