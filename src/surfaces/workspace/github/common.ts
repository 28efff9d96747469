import { z } from "zod";
import { describeGitHubError } from "../../../core/github/errors.js";
import { type RepoTarget, resolveTarget } from "../../../core/github/target.js";
import type { ToolContext, ToolReply } from "../../tool.js";
import { boundedReply, strReply } from "../common.js";

export const referenceName = z
  .string()
  .nullable()
  .optional()
  .describe("Act on this reference project's repository instead of the workspace repository");
export const strList = z.array(z.string()).nullable().optional();

/** Runs a GitHub operation; every failure becomes an `Error: ...` text reply, never a thrown error. */
export async function github(
  ctx: ToolContext,
  reference: string | null | undefined,
  op: (t: RepoTarget) => Promise<string>,
): Promise<ToolReply> {
  let apiBase = "GitHub API";
  try {
    const t = await resolveTarget({
      roots: ctx.ws.roots,
      urlOnlyReferences: ctx.ws.urlOnlyReferences,
      referenceName: reference,
      env: ctx.config.githubEnv,
      log: { warn: (m) => ctx.log.warn(m) },
    });
    apiBase = t.apiBase;
    const text = await op(t);
    return boundedReply(ctx, text);
  } catch (err) {
    const msg = describeGitHubError(err, apiBase);
    ctx.log.warn({ err: msg }, "GitHub call failed");
    return strReply(`Error: ${msg}`);
  }
}

export const READ = { readOnlyHint: true, openWorldHint: true } as const;
