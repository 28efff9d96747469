import { z } from "zod";
import { createPullRequest } from "../../../core/github/pulls.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github } from "./common.js";

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
  output: strOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  mutating: true,
  needsGitHub: true,
  handler: (a, ctx) =>
    github(ctx, undefined, (t) =>
      createPullRequest(t, { title: a.title, body: a.body, head: a.head, base: a.base }),
    ),
});
