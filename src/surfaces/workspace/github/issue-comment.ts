import { z } from "zod";
import { commentOnIssue } from "../../../core/github/issues.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, referenceName } from "./common.js";

export const githubIssueComment = defineTool({
  name: "github_issue_comment",
  title: "Comment on GitHub issue",
  description: "Add a comment to an issue or pull request.",
  input: z.object({ number: z.number(), body: z.string(), reference_name: referenceName }),
  output: strOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) => github(ctx, a.reference_name, (t) => commentOnIssue(t, a.number, a.body)),
});
