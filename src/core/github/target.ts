import { isRepoRoot, remoteUrl } from "../git/repo.js";
import { type GitRepository, openRepository } from "../git/repository-gate.js";
import { printable } from "../paths.js";
import type { UrlOnlyReference } from "../references.js";
import type { Root } from "../workspace.js";
import { type GitHub, makeClient } from "./client.js";
import { GitHubToolError } from "./errors.js";
import { apiBaseForHost, fullName, parseRepoUrl, type RepoId } from "./repo-url.js";
import { type GitHubEnv, type GitHubSettings, loadGitHubSettings, missingTokenMessage } from "./settings.js";

/** The repository a GitHub tool acts on, with a client for its API host. */
export interface RepoTarget {
  id: RepoId;
  fullName: string;
  apiBase: string;
  gh: GitHub;
  settings: GitHubSettings;
  /** Set when the target is a reference project (messages name it). */
  referenceName?: string;
  /** The local clone, when there is one (the project, or a reference project's directory; never URL-only). */
  repo?: GitRepository;
}

export interface TargetOptions {
  roots: readonly Root[];
  /** Reference projects known only by URL: reachable by name, no directory. */
  urlOnlyReferences?: readonly UrlOnlyReference[];
  referenceName?: string | null;
  /** The GitHub variables of the environment (`Config.githubEnv`). */
  env: GitHubEnv;
  log?: { warn(msg: string): void };
}

/**
 * Where a repository's API is and which token goes there. The token goes only where the user sends it:
 * GITHUB_API_URL when set, api.github.com for github.com, and the Enterprise hosts listed in the config
 * file. Any other host — a remote is the repository's say, and a reference project is someone else's
 * checkout — is refused before anything is sent.
 */
function apiEndpointFor(
  id: RepoId,
  settings: GitHubSettings,
  whose: string,
): { apiBase: string; token?: string } {
  if (settings.apiUrl) return { apiBase: settings.apiUrl, token: settings.token };
  const host = id.host.toLowerCase();
  if (host === "github.com" || host === "www.github.com")
    return { apiBase: apiBaseForHost(host), token: settings.token };
  const enterprise = settings.enterpriseHosts.get(host);
  if (enterprise) return { apiBase: apiBaseForHost(host), token: enterprise.token ?? settings.token };
  const shown = printable(host);
  throw new GitHubToolError(
    `GitHub host '${shown}' (from ${whose}) is not github.com or a GitHub Enterprise host you listed, so no request is sent there (it would carry your GitHub token). To use it, add it to ${settings.configPath}: [github] enterprise_hosts = ["${shown}"] (optionally { host = "${shown}", token = "..." } for a token of its own), or set GITHUB_API_URL.`,
  );
}

/** The project's repository (from its origin remote) or a reference project's (its URL, else its origin). */
export async function resolveTarget(opts: TargetOptions): Promise<RepoTarget> {
  const settings = loadGitHubSettings(opts.env);
  let id: RepoId | undefined;
  let repo: GitRepository | undefined;
  const refName = opts.referenceName ?? undefined;
  if (refName !== undefined) {
    const ref = opts.roots.find((r) => r.kind === "reference" && r.name === refName);
    const urlOnly = ref ? undefined : opts.urlOnlyReferences?.find((r) => r.name === refName);
    if (!ref && !urlOnly) throw new GitHubToolError(`Reference project '${printable(refName)}' not found`);
    repo = ref ? await openRepository(ref).catch(() => undefined) : undefined;
    // Resolved from the configured URL, never by cloning (the seed's Cross-Repo GitHub Access).
    const url = urlOnly?.url ?? ref?.url ?? (repo ? await remoteUrl(repo) : undefined);
    if (!url) throw new GitHubToolError(`Reference project '${printable(refName)}' has no URL configured`);
    id = parseRepoUrl(url);
    if (!id)
      throw new GitHubToolError(
        `Reference project '${printable(refName)}' URL is not a GitHub repository URL: ${printable(url)}`,
      );
  } else {
    const project = opts.roots.find((r) => r.kind === "project");
    if (!project) throw new GitHubToolError("Project directory has not been set");
    repo = await openRepository(project).catch(() => undefined);
    if (!repo || !isRepoRoot(repo))
      throw new GitHubToolError("Directory is not a git repository: the project directory");
    const url = await remoteUrl(repo);
    id = url ? parseRepoUrl(url) : undefined;
    if (!id) throw new GitHubToolError("Could not detect repository from git remote");
  }
  const whose =
    refName !== undefined ? `reference project '${printable(refName)}'` : "the project's origin remote";
  const { apiBase, token } = apiEndpointFor(id, settings, whose);
  if (!token) throw new GitHubToolError(missingTokenMessage(settings));
  const gh = await makeClient({
    token,
    baseUrl: apiBase,
    timeoutMs: settings.timeoutMs,
    log: opts.log,
  });
  return { id, fullName: fullName(id), apiBase, gh, settings, referenceName: refName, repo };
}

/** `owner` and `repo` for Octokit calls. */
export function repoParams(t: RepoTarget): { owner: string; repo: string } {
  return { owner: t.id.owner, repo: t.id.repo };
}

/** ` in reference project '<name>'` when the target is a reference project. */
export function refSuffix(t: { referenceName?: string }): string {
  return t.referenceName ? ` in reference project '${t.referenceName}'` : "";
}
