import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "smol-toml";

/** GitHub settings from the environment and the user's `~/.mcp_coder/config.toml` (never the repository). */
export interface GitHubSettings {
  token?: string;
  /** Lower-cased logins whose text is shown even without an OWNER/MEMBER/COLLABORATOR role. */
  trustedCommenters: ReadonlySet<string>;
  testRepoUrl?: string;
  /** Where the settings file is (for messages). */
  configPath: string;
  /** Explicit API base (GITHUB_API_URL), overriding the one derived from the repository host. */
  apiUrl?: string;
  /**
   * GitHub Enterprise hosts (`host` or `host:port`, lower-cased) the user sends a token to, each with its
   * own token when given: `[github] enterprise_hosts = ["ghe.example.com", { host = "...", token = "..." }]`.
   */
  enterpriseHosts: ReadonlyMap<string, { token?: string }>;
  timeoutMs: number;
}

export const DEFAULT_GITHUB_TIMEOUT_MS = 10_000;

/**
 * The environment variables the GitHub settings take, as the CLI captured them at start-up
 * (`Config.githubEnv`): core never reads `process.env`.
 */
export interface GitHubEnv {
  readonly GITHUB_TOKEN?: string;
  readonly GITHUB_API_URL?: string;
  readonly GITHUB_TEST_REPO_URL?: string;
  readonly MCPFS_GITHUB_TIMEOUT_MS?: string;
  /** Where `~/.mcp_coder/config.toml` is (else USERPROFILE, else the OS's home directory). */
  readonly HOME?: string;
  readonly USERPROFILE?: string;
}

function homeDir(env: GitHubEnv): string {
  return env.HOME || env.USERPROFILE || os.homedir();
}

export function configFilePath(env: GitHubEnv): string {
  return path.join(homeDir(env), ".mcp_coder", "config.toml");
}

/** The `[github]` table of the config file; an unreadable or malformed file counts as absent. */
function readGithubTable(file: string): Record<string, unknown> {
  try {
    const doc = parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
    const gh = doc.github;
    return gh && typeof gh === "object" && !Array.isArray(gh) ? (gh as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Read on every call so a token added to the file works without a restart. */
export function loadGitHubSettings(env: GitHubEnv): GitHubSettings {
  const configPath = configFilePath(env);
  const gh = readGithubTable(configPath);
  const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);
  const trusted = Array.isArray(gh.trusted_commenters)
    ? gh.trusted_commenters
        .filter((x): x is string => typeof x === "string")
        .map((x) => x.trim().toLowerCase())
    : [];
  const enterpriseHosts = new Map<string, { token?: string }>();
  for (const e of Array.isArray(gh.enterprise_hosts) ? gh.enterprise_hosts : []) {
    const t = e && typeof e === "object" ? (e as Record<string, unknown>) : undefined;
    const host = str(t ? t.host : e)?.toLowerCase();
    if (host) enterpriseHosts.set(host, { token: str(t?.token) });
  }
  const timeout = Number.parseInt(env.MCPFS_GITHUB_TIMEOUT_MS ?? "", 10);
  return {
    token: str(env.GITHUB_TOKEN) ?? str(gh.token),
    trustedCommenters: new Set(trusted.filter(Boolean)),
    testRepoUrl: str(env.GITHUB_TEST_REPO_URL) ?? str(gh.test_repo_url),
    configPath,
    apiUrl: str(env.GITHUB_API_URL)?.replace(/\/+$/, ""),
    enterpriseHosts,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_GITHUB_TIMEOUT_MS,
  };
}

export function missingTokenMessage(settings: GitHubSettings): string {
  return `GitHub token not found. Configure it in ${settings.configPath} or set GITHUB_TOKEN environment variable`;
}
