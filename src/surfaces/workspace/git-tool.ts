import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { GIT_COMMANDS, type GitCommand } from "../../core/git/commands.js";
import { runGitRead } from "../../core/git/read-command.js";
import { namesOf, type Root } from "../../core/workspace.js";
import { defineTool } from "../tool.js";
import { boundedReply, projectRoot, referenceRoot, strOutput } from "./common.js";

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
  output: strOutput,
  annotations: { readOnlyHint: true, openWorldHint: true },
  mutating: false,
  async handler(args, ctx) {
    splitCommandHint(args.command);
    let root: Root;
    let label: string;
    if (args.reference_name != null) {
      root = referenceRoot(ctx, args.reference_name);
      label = args.reference_name;
    } else {
      root = projectRoot(ctx);
      label = "the project directory";
    }
    const deny = root.deny ? { rules: root.deny, folds: namesOf(root).foldsCase } : undefined;
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
      { root, label, signal: ctx.signal, deny, hideIgnored: ctx.ws.rules.hideIgnored },
    );
    return boundedReply(ctx, text);
  },
});

/**
 * A whole command line in `command` (`"log -3 --oneline"`, `"git status"`): the unknown-command error, plus
 * the call that works, flags in `args` and what follows `--` in `pathspec`.
 */
function splitCommandHint(command: string): void {
  const words = command.trim().split(/\s+/);
  const git = words[0] === "git" ? words.shift() : undefined;
  const [cmd, ...rest] = words;
  if ((rest.length === 0 && !git) || !GIT_COMMANDS.includes(cmd as GitCommand)) return;
  const dashes = rest.indexOf("--");
  const flags = dashes === -1 ? rest : rest.slice(0, dashes);
  const paths = dashes === -1 ? [] : rest.slice(dashes + 1);
  const list = (a: string[]) => `[${a.map((x) => JSON.stringify(x)).join(", ")}]`;
  const call = `{"command": "${cmd}", "args": ${list(flags)}${paths.length > 0 ? `, "pathspec": ${list(paths)}` : ""}}`;
  throw new ToolError("invalid", { reason: "git_unknown_command", name: command, expected: call });
}
