import { z } from "zod";
import { listLabels } from "../../../core/github/labels.js";
import { defineTool } from "../../tool.js";
import { strOutput } from "../common.js";
import { github, READ, referenceName } from "./common.js";

export const githubLabelList = defineTool({
  name: "github_label_list",
  title: "List GitHub labels",
  description:
    "List the repository's labels, optionally filtered by a case-insensitive substring of name or description.",
  input: z.object({ search: z.string().nullable().optional(), reference_name: referenceName }),
  output: strOutput,
  annotations: READ,
  mutating: false,
  needsGitHub: true,
  handler: (a, ctx) => github(ctx, a.reference_name, (t) => listLabels(t, a.search)),
});
