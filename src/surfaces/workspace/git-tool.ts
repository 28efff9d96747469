import { z } from "zod";
import { runGitRead } from "../../core/git/read-command.js";
import { defineTool, plainReply } from "../tool.js";
import { projectRoot, referenceRoot } from "./common.js";
import { boundReply } from "./reply-bound.js";

export const gitTool = defineTool({
  name: "git",
  title: "Git (read-only)",
  description:
    "Run a read-only git command in the project (or, with reference_name, a reference project). " +
    "Commands: log, diff, status, merge_base, fetch, show, branch, rev_parse, ls_tree, ls_files, ls_remote, " +
    "check_ignore. Flags are checked against a per-command allow-list; paths go in 'pathspec' or after '--' " +
    "in args. 'search' filters log/diff/show output (case-insensitive regex), 'context' sets the lines kept " +
    "around diff matches, 'max_lines' caps the output, 'compact' shortens moved code in diffs.",
  input: z.object({
    command: z
      .string()
      .describe(
        "log, diff, status, merge_base, fetch, show, branch, rev_parse, ls_tree, ls_files, ls_remote or check_ignore",
      ),
    args: z
      .array(z.string())
      .nullable()
      .optional()
      .describe("Flags and revisions, e.g. ['--oneline', '-n', '10']"),
    pathspec: z.array(z.string()).nullable().optional().describe("Paths to limit the command to"),
    search: z
      .string()
      .nullable()
      .optional()
      .describe("Case-insensitive regex to filter log/diff/show output"),
    context: z.number().int().optional().default(3).describe("Context lines around search matches in diffs"),
    max_lines: z.number().int().nullable().optional().describe("Maximum output lines (per-command default)"),
    compact: z.boolean().optional().default(true).describe("Shorten moved code blocks in diff/show"),
    reference_name: z.string().nullable().optional().describe("Run in this reference project instead"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: true },
  mutating: false,
  async handler(args, ctx) {
    let dir: string;
    let label: string;
    if (args.reference_name != null) {
      const ref = referenceRoot(ctx, args.reference_name);
      dir = ref.real;
      label = args.reference_name;
    } else {
      dir = projectRoot(ctx).real;
      label = "the project directory";
    }
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
      { dir, label, signal: ctx.signal },
    );
    return plainReply(boundReply(text, ctx.config.maxOutputBytes));
  },
});
