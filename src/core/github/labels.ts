import { GitHubToolError } from "./errors.js";
import { type RepoTarget, repoParams } from "./target.js";

/** Refuses workflow `status-*` labels (either side) and unknown labels (add side), as mcp-workspace does. */
export async function checkLabels(
  t: RepoTarget,
  add: readonly string[],
  remove: readonly string[],
): Promise<void> {
  const status = [...add, ...remove].filter((l) => l.trim().toLowerCase().startsWith("status-"));
  if (status.length) {
    const where = t.referenceName ? ` from the '${t.referenceName}' project's own checkout` : "";
    throw new GitHubToolError(
      `these tools do not modify status-* labels (${status.join(", ")}). Use: mcp-coder gh-tool set-status <label>${where}`,
    );
  }
  if (add.length === 0) return;
  const known = new Set((await allLabels(t)).map((l) => l.name.toLowerCase()));
  const unknown = add.filter((l) => !known.has(l.toLowerCase()));
  if (unknown.length) {
    const where = t.referenceName ? ` in reference project '${t.referenceName}'` : "";
    throw new GitHubToolError(`unknown label(s)${where}: ${unknown.join(", ")}`);
  }
}

export async function allLabels(t: RepoTarget) {
  return t.gh.paginate(t.gh.rest.issues.listLabelsForRepo, { ...repoParams(t), per_page: 100 });
}

/** `@me` stands for the token's own login. */
export async function resolveAssignees(t: RepoTarget, logins: readonly string[]): Promise<string[]> {
  if (!logins.includes("@me")) return [...logins];
  const me = (await t.gh.rest.users.getAuthenticated()).data.login;
  return logins.map((l) => (l === "@me" ? me : l));
}

export async function listLabels(t: RepoTarget, search?: string | null): Promise<string> {
  const needle = search?.toLowerCase();
  const lines = (await allLabels(t))
    .filter(
      (l) =>
        !needle ||
        l.name.toLowerCase().includes(needle) ||
        (l.description ?? "").toLowerCase().includes(needle),
    )
    .map((l) => `${l.name}  #${l.color}  ${l.description ?? ""}`.trimEnd());
  return lines.length ? lines.join("\n") : "No labels found.";
}
