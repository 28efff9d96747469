import type { Config } from "../config/index.js";
// Type only: the GitHub code (and its TOML parser) is not loaded at start-up.
import type { GitHubEnv } from "../core/github/settings.js";

const GITHUB_ENV_KEYS = [
  "GITHUB_TOKEN",
  "GITHUB_API_URL",
  "GITHUB_TEST_REPO_URL",
  "MCPFS_GITHUB_TIMEOUT_MS",
  "HOME",
  "USERPROFILE",
] as const satisfies readonly (keyof GitHubEnv)[];

/**
 * What the environment decides, read once here at start-up into the Config: below the CLI nothing reads
 * `process.env` (biome's noProcessEnv; the git runner's pass-through of the environment to its child is the
 * one, marked, exception).
 */
export function applyEnvironment(config: Config, env: NodeJS.ProcessEnv): void {
  const engine = env.MCPFS_GREP_ENGINE;
  if (engine === "js" || engine === "rg") config.grepEngine = engine;
  config.githubEnv = githubEnv(env);
  // Test switches (not for users): the non-Linux descriptor checks, case folding, no hard links.
  if (env.MCPFS_FORCE_PORTABLE_FD === "1") config.volumeOverrides.portableDescriptors = true;
  if (env.MCPFS_FORCE_CASE_FOLD === "1") config.volumeOverrides.foldCase = true;
  if (env.MCPFS_FORCE_NO_HARDLINKS === "1") config.volumeOverrides.noHardLinks = true;
}

/** The variables the GitHub settings take (token, API URL, timeout, home for the settings file). */
function githubEnv(env: NodeJS.ProcessEnv): GitHubEnv {
  const out: { -readonly [K in keyof GitHubEnv]: GitHubEnv[K] } = {};
  for (const k of GITHUB_ENV_KEYS) if (env[k] !== undefined) out[k] = env[k];
  return Object.freeze(out);
}
