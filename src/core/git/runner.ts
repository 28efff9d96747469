import { admitCommand, type GitRepository } from "./repository-gate.js";
import { type GitRunResult, gitEnv, safeArgv, spawnGit } from "./spawn.js";

export type { GitRunResult } from "./spawn.js";

export interface GitRunOptions {
  /** Stop reading stdout after this many bytes (the child is killed; `truncated` is set). */
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra `-c key=value` settings placed before the subcommand. */
  config?: Record<string, string>;
}

/**
 * Runs `git <args>` in a repository that passed the gate (`openRepository`), once the gate admits this
 * command (no write into a read-only root, no local remote outside the root), as a child process (no
 * shell) with bounded output and time and every program the repository's configuration names overruled
 * (see config-trust.ts). Throws ToolError when the gate refuses.
 */
export async function runGit(
  repo: GitRepository,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<GitRunResult> {
  await admitCommand(repo, args, opts.signal);
  const { guard } = repo;
  const argv = safeArgv(args, guard, opts.config);
  const r = await spawnGit(argv, { ...gitEnv(repo.cwd), ...guard.env }, { ...opts, cwd: repo.cwd });
  if (r.code !== 0 && guard.neutralised.length > 0) {
    const keys = guard.neutralised;
    const named =
      keys.length > 5 ? `${keys.slice(0, 5).join(", ")} and ${keys.length - 5} more` : keys.join(", ");
    r.stderr += `\n(the repository's own configuration names programs, which are not run here: ${named}; set them in your global git configuration to use them)`;
  }
  return r;
}

/** Runs git and returns trimmed stdout, or undefined when git fails or is refused (for internal queries). */
export async function gitQuery(repo: GitRepository, args: readonly string[]): Promise<string | undefined> {
  try {
    const r = await runGit(repo, args, { timeoutMs: 15_000, maxBytes: 4 * 1024 * 1024 });
    return r.code === 0 && !r.timedOut ? r.stdout.replace(/\n$/, "") : undefined;
  } catch {
    return undefined;
  }
}
