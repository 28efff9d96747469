/**
 * Octokit and its plugins, loaded on the first GitHub call (client.ts imports this module with `import()`;
 * the bundle builds it as a file of its own, `mcpfs-github.cjs`), so a start without GitHub work never
 * parses them.
 */
import { retry } from "@octokit/plugin-retry";
import { throttling } from "@octokit/plugin-throttling";
import { Octokit } from "@octokit/rest";

/** Octokit with retries and rate-limit handling. */
export const GitHubOctokit = Octokit.plugin(retry, throttling);
