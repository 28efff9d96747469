/** A GitHub (or GitHub Enterprise) repository named by a remote URL. */
export interface RepoId {
  host: string;
  owner: string;
  repo: string;
}

const NAME = "[A-Za-z0-9_.-]+";
const HTTPS = new RegExp(`^https://(?:[^@/]+@)?([^/@:]+(?::\\d+)?)/(${NAME})/(${NAME}?)(?:\\.git)?/?$`);
const SCP = new RegExp(`^[A-Za-z0-9_.-]+@([^:/]+):(${NAME})/(${NAME}?)(?:\\.git)?/?$`);
const SSH = new RegExp(`^ssh://(?:[^@/]+@)?([^/:]+)(?::\\d+)?/(${NAME})/(${NAME}?)(?:\\.git)?/?$`);

/**
 * Parses `https://[user[:pass]@]host/owner/repo[.git]`, `git@host:owner/repo[.git]` and
 * `ssh://[user@]host[:port]/owner/repo[.git]`. Nested groups and other schemes are not GitHub repositories.
 */
export function parseRepoUrl(url: string): RepoId | undefined {
  const u = url.trim();
  for (const re of [HTTPS, SCP, SSH]) {
    const m = re.exec(u);
    if (m) {
      const repo = m[3]!.replace(/\.git$/, "");
      if (!repo || m[2] === "." || m[2] === ".." || repo === "." || repo === "..") return undefined;
      return { host: m[1]!.toLowerCase(), owner: m[2]!, repo };
    }
  }
  return undefined;
}

/** github.com → api.github.com; GHE Cloud (*.ghe.com) → api.<host>; any other host (GHES) → <host>/api/v3. */
export function apiBaseForHost(host: string): string {
  const h = host.toLowerCase();
  if (h === "github.com" || h === "www.github.com") return "https://api.github.com";
  if (h.endsWith(".ghe.com")) return `https://api.${h}`;
  return `https://${h}/api/v3`;
}

export function fullName(id: RepoId): string {
  return `${id.owner}/${id.repo}`;
}
