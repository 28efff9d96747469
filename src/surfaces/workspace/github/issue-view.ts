import { z } from "zod";
import { viewIssue } from "../../../core/github/issues.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, READ, referenceName } from "./common.js";

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
  output: strOutput,
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      viewIssue(t, { number: a.number, includeComments: a.include_comments, maxLines: a.max_lines }),
    ),
});
