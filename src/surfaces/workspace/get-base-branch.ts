import { z } from "zod";
import { openRepository } from "../../core/git/repository-gate.js";
import { detectBaseBranch } from "../../core/github/base-branch.js";
import { type RepoTarget, resolveTarget } from "../../core/github/target.js";
import { defineTool } from "../tool.js";
import { projectRoot, strOutput, strReply } from "./common.js";

export const getBaseBranch = defineTool({
  name: "get_base_branch",
  title: "Get base branch",
  description:
    "The current branch's base: the linked issue's '### Base Branch' section, the open PR's base, the nearest parent branch, or the default branch.",
  input: z.object({}),
  output: strOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  mutating: false,
  async handler(_a, ctx) {
    const project = projectRoot(ctx);
    let target: RepoTarget | undefined;
    try {
      target = await resolveTarget({ roots: ctx.ws.roots, env: ctx.config.githubEnv });
    } catch {
      // No token or no GitHub remote: detection continues with git alone.
    }
    try {
      const r = await detectBaseBranch(await openRepository(project), target);
      for (const w of r.warnings) ctx.log.warn(w);
      return strReply(r.branch ?? "main");
    } catch {
      return strReply("main");
    }
  },
});
