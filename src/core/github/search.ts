import { GitHubToolError } from "./errors.js";
import type { RepoTarget } from "./target.js";
import { labelNames } from "./text.js";

export interface SearchParams {
  query: string;
  state?: string | null;
  labels?: string[] | null;
  assignee?: string | null;
  sort?: string | null;
  order?: string | null;
  maxResults: number;
}

const SORTS = [
  "comments",
  "reactions",
  "reactions-+1",
  "reactions--1",
  "reactions-smile",
  "reactions-thinking_face",
  "reactions-heart",
  "reactions-tada",
  "interactions",
  "created",
  "updated",
];

/** The `q` string: repo qualifier, a type (issues unless the query names one), the query, state, labels, assignee. */
export function buildSearchQuery(fullName: string, p: SearchParams): string {
  const q = p.query.trim();
  if (/(^|\s)type:(pull-request|pull_request)(\s|$)/i.test(q))
    throw new GitHubToolError("Invalid qualifier 'type:pull-request': use 'is:pull-request' or 'is:pr'");
  const state = p.state?.toLowerCase();
  if (state && !["open", "closed", "all"].includes(state))
    throw new GitHubToolError(`Invalid state: ${p.state}. Expected 'open', 'closed' or 'all'.`);
  for (const l of p.labels ?? [])
    if (!l.trim() || l.includes('"'))
      throw new GitHubToolError(`Invalid label '${l}': a label must be non-empty and cannot contain '"'`);
  if (p.assignee != null && /\s/.test(p.assignee))
    throw new GitHubToolError(
      `Invalid assignee '${p.assignee}': a GitHub username cannot contain whitespace`,
    );
  const parts = [`repo:${fullName}`];
  if (!/(^|\s)(is:issue|is:pr|is:pull-request|type:issue|type:pr)(\s|$)/i.test(q)) parts.push("is:issue");
  if (q) parts.push(q);
  if ((state === "open" || state === "closed") && !/(^|\s)(is|state):(open|closed)(\s|$)/i.test(q))
    parts.push(`is:${state}`);
  for (const l of p.labels ?? []) parts.push(`label:"${l}"`);
  if (p.assignee) parts.push(`assignee:${p.assignee}`);
  return parts.join(" ");
}

export async function searchIssues(t: RepoTarget, p: SearchParams): Promise<string> {
  if (!Number.isInteger(p.maxResults) || p.maxResults < 1)
    throw new GitHubToolError("max_results must be a positive integer");
  if (p.sort && !SORTS.includes(p.sort))
    throw new GitHubToolError(`Invalid sort: ${p.sort}. Expected one of: ${SORTS.join(", ")}`);
  if (p.order && p.order !== "asc" && p.order !== "desc")
    throw new GitHubToolError(`Invalid order: ${p.order}. Expected 'asc' or 'desc'.`);
  const q = buildSearchQuery(t.fullName, p);
  const res = await t.gh.rest.search.issuesAndPullRequests({
    q,
    ...(p.sort ? { sort: p.sort as "created" } : {}),
    ...(p.order ? { order: p.order as "asc" | "desc" } : {}),
    per_page: Math.min(100, p.maxResults),
  });
  const items = res.data.items.slice(0, p.maxResults);
  if (items.length === 0) return "No results found.";
  const lines = items.map((i) => {
    const labels = labelNames(i.labels);
    return `#${i.number} [${i.pull_request ? "PR" : "Issue"}] [${i.state}] ${i.title}${labels.length ? `  ${labels.join(", ")}` : ""}`;
  });
  return [`Showing ${items.length} of ${res.data.total_count} results for: ${q}`, ...lines].join("\n");
}
