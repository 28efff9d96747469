import { ToolError } from "./errors.js";
import { isGitIgnored } from "./ignore.js";
import { printable } from "./paths.js";
import type { PathStyle, ResolvedPath } from "./workspace.js";

/**
 * What a connection keeps out of reach beyond confinement and read-only roots. Its Workspace holds it and
 * applies it for every entry point (tools, resources, completions, subscriptions): there is no second copy.
 */
export interface AccessPolicy {
  /** mcp-workspace's rule: `.git/` and what .gitignore files ignore can be neither read nor written. */
  readonly hideIgnored: boolean;
  /** Writes into `.git` directories are allowed (the filesystem surface with `--allow-git-dir-writes`). */
  readonly gitDirWrites: boolean;
}

export interface AccessOptions {
  /**
   * Lift the `.git` write refusal (`--allow-git-dir-writes`). The workspace surface ignores it: there
   * `.git/` is out of reach altogether, as in mcp-workspace.
   * @default false
   */
  allowGitDirWrites?: boolean;
}

/** The policy of a path style: a planted `.git/config` or hook would run on the user's next git command. */
export function accessPolicy(style: PathStyle, opts: AccessOptions = {}): AccessPolicy {
  const workspace = style === "workspace";
  return { hideIgnored: workspace, gitDirWrites: !workspace && opts.allowGitDirWrites === true };
}

export function ignoredError(shown: string): ToolError {
  return new ToolError(
    `File '${printable(shown)}' is excluded by .gitignore and cannot be accessed. Use list_directory() to see available files.`,
    "ignored",
  );
}

export function gitDirWriteError(shown: string): ToolError {
  return new ToolError(
    `Access denied - writes inside .git directories are refused: ${printable(shown)}. ` +
      "Start the server with --allow-git-dir-writes to allow them.",
    "denied",
  );
}

/**
 * The read gate of a resolved path: under `hideIgnored`, anything under `.git/` or ignored by a `.gitignore`
 * (root and nested) or `.git/info/exclude` is refused. `isDir: "either"` when the kind is not known.
 */
export async function gateIgnored(
  policy: AccessPolicy,
  target: ResolvedPath,
  shown: string,
  isDir: boolean | "either",
): Promise<void> {
  if (!policy.hideIgnored || target.relative === "") return;
  const ignored =
    isDir === "either"
      ? (await isGitIgnored(target.root, target.relative, false)) ||
        (await isGitIgnored(target.root, target.relative, true))
      : await isGitIgnored(target.root, target.relative, isDir);
  if (ignored) throw ignoredError(shown);
}

/** Whether listings of this connection leave out ignored entries (`--no-gitignore` cannot lift the policy). */
export function listsSkipIgnored(policy: AccessPolicy, gitignoreFlag: boolean): boolean {
  return policy.hideIgnored || gitignoreFlag;
}
