import { z } from "zod";
import { viewPullRequest } from "../../../core/github/pulls.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, READ, referenceName } from "./common.js";

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
  output: strOutput,
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, a.reference_name, (t) =>
      viewPullRequest(t, { number: a.number, includeComments: a.include_comments, maxLines: a.max_lines }),
    ),
});
