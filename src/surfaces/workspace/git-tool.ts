import { z } from "zod";
import { runGitRead } from "../../core/git/read-command.js";
import { defineTool } from "../tool.js";
import { boundedReply, projectRoot, referenceRoot } from "./common.js";

export const gitTool = defineTool({
  name: "git",
  title: "Git (read-only)",
  description:
    "Run a read-only git command in the project or a reference project; flags are checked per command, paths go in pathspec. search filters log/diff/show output, compact shortens moved code.",
  input: z.object({
    command: z
      .string()
      .describe(
        "log, diff, status, merge_base, fetch, show, branch, rev_parse, ls_tree, ls_files, ls_remote or check_ignore",
      ),
    args: z.array(z.string()).nullable().optional().describe("Flags and revisions"),
    pathspec: z.array(z.string()).nullable().optional(),
    search: z.string().nullable().optional().describe("Case-insensitive regex"),
    context: z.number().int().optional().default(3),
    max_lines: z.number().int().nullable().optional(),
    compact: z.boolean().optional().default(true),
    reference_name: z.string().nullable().optional().describe("A reference project instead"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  mutating: false,
  async handler(args, ctx) {
    const reference = args.reference_name;
    const root = reference != null ? referenceRoot(ctx, reference) : projectRoot(ctx);
    const label = reference ?? "the project directory";
    const text = await runGitRead(
      {
        command: args.command,
        args: args.args,
        pathspec: args.pathspec,
        search: args.search,
        context: args.context,
        maxLines: args.max_lines,
        compact: args.compact,
      },
      { root, label, signal: ctx.signal },
    );
    return boundedReply(ctx, text);
  },
});
