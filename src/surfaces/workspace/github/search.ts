import { z } from "zod";
import { searchIssues } from "../../../core/github/search.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, READ, referenceName, strList } from "./common.js";

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
  output: strOutput,
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
