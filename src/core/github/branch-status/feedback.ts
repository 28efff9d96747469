import { lfPieces, toLf } from "../../text/lines.js";
import { describeGitHubError, statusOf } from "../errors.js";
import { type RepoTarget, repoParams } from "../target.js";
import { isTrusted, withheldLine } from "../trust.js";

export const REVIEW_QUERY = `query($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 50) {
        nodes {
          isResolved
          path
          line
          comments(first: 5) {
            nodes { author { login } authorAssociation body diffHunk }
          }
        }
      }
      reviews(first: 50) {
        nodes { author { login } authorAssociation state body submittedAt }
      }
    }
  }
}`;

interface GqlComment {
  author: { login: string } | null;
  authorAssociation: string;
  body: string;
  diffHunk: string;
}
interface GqlThread {
  isResolved: boolean;
  path: string;
  line: number | null;
  comments: { nodes: GqlComment[] };
}
interface GqlReview {
  author: { login: string } | null;
  authorAssociation: string;
  state: string;
  body: string;
  submittedAt: string | null;
}
interface GqlResult {
  repository: {
    pullRequest: { reviewThreads: { nodes: GqlThread[] }; reviews: { nodes: GqlReview[] } } | null;
  } | null;
}

export interface Feedback {
  items: string[];
  resolved: number;
  withheld: number;
  unavailable: string[];
  /** Sections whose failure makes the review gate undeterminable. */
  threadsUnavailable: boolean;
  alertsUnavailable: boolean;
  blocking: boolean;
}

const BODY_LINES = 10;
const MAX_ITEMS = 20;

function cut(body: string): string {
  const lines = lfPieces(toLf(body.trim()));
  return lines.length > BODY_LINES
    ? `${lines.slice(0, BODY_LINES).join("\n")}\n... (truncated)`
    : lines.join("\n");
}

function indent(text: string, pad = "    "): string {
  return lfPieces(text)
    .map((l) => pad + l)
    .join("\n");
}

/** Review threads, change requests, conversation comments and code-scanning alerts of an open PR. */
export async function collectFeedback(t: RepoTarget, pr: number): Promise<Feedback> {
  const fb: Feedback = {
    items: [],
    resolved: 0,
    withheld: 0,
    unavailable: [],
    threadsUnavailable: false,
    alertsUnavailable: false,
    blocking: false,
  };
  const allow = t.settings.trustedCommenters;
  try {
    const data = await t.gh.graphql<GqlResult>(REVIEW_QUERY, { ...repoParams(t), number: pr });
    const p = data.repository?.pullRequest;
    addThreads(fb, p?.reviewThreads.nodes ?? [], allow);
    addChangeRequests(fb, p?.reviews.nodes ?? [], allow);
  } catch (err) {
    fb.threadsUnavailable = true;
    fb.unavailable.push(`[unavailable] review threads: ${describeGitHubError(err, t.apiBase)}`);
  }
  await addComments(fb, t, pr);
  await addAlerts(fb, t, pr);
  return fb;
}

/** Unresolved threads opened by a trusted commenter block; their untrusted replies are withheld. */
function addThreads(fb: Feedback, threads: readonly GqlThread[], allow: ReadonlySet<string>): void {
  for (const th of threads) {
    if (th.isResolved) {
      fb.resolved++;
      continue;
    }
    const first = th.comments.nodes[0];
    if (!first || !isTrusted(first.author?.login, first.authorAssociation, allow)) {
      fb.withheld++;
      continue;
    }
    fb.blocking = true;
    const where = `${th.path}:${th.line ?? "?"}`;
    const shown = th.comments.nodes.filter((c) => isTrusted(c.author?.login, c.authorAssociation, allow));
    fb.withheld += th.comments.nodes.length - shown.length;
    fb.items.push(
      [
        `[unresolved thread] ${where} (${first.author?.login ?? "ghost"}):`,
        indent(lfPieces(first.diffHunk).slice(-6).join("\n")),
        ...shown.map(
          (c, i) => `  ${i === 0 ? "Comment" : `Reply (${c.author?.login ?? "ghost"})`}: ${cut(c.body)}`,
        ),
      ].join("\n"),
    );
  }
}

/** GitHub's own view: an author's latest review decides; a trusted one's change request blocks. */
function addChangeRequests(fb: Feedback, reviews: readonly GqlReview[], allow: ReadonlySet<string>): void {
  const latest = new Map<string, GqlReview>();
  for (const r of reviews) {
    if (r.state === "COMMENTED" || r.state === "PENDING") continue;
    latest.set(r.author?.login ?? "ghost", r);
  }
  for (const r of latest.values()) {
    if (r.state !== "CHANGES_REQUESTED") continue;
    if (!isTrusted(r.author?.login, r.authorAssociation, allow)) {
      fb.withheld++;
      continue;
    }
    fb.blocking = true;
    fb.items.push(`[changes_requested] ${r.author?.login ?? "ghost"}: ${cut(r.body || "(no comment)")}`);
  }
}

/** The PR's conversation comments by trusted commenters (shown, never blocking). */
async function addComments(fb: Feedback, t: RepoTarget, pr: number): Promise<void> {
  try {
    const comments = await t.gh.paginate(t.gh.rest.issues.listComments, {
      ...repoParams(t),
      issue_number: pr,
      per_page: 100,
    });
    for (const c of comments) {
      if (!isTrusted(c.user?.login, c.author_association, t.settings.trustedCommenters)) {
        fb.withheld++;
        continue;
      }
      fb.items.push(`[comment] ${c.user?.login ?? "ghost"}:\n${indent(cut(c.body ?? ""), "  ")}`);
    }
  } catch (err) {
    fb.unavailable.push(`[unavailable] comments: ${describeGitHubError(err, t.apiBase)}`);
  }
}

/** Open code-scanning alerts on the PR's head: each one blocks. */
async function addAlerts(fb: Feedback, t: RepoTarget, pr: number): Promise<void> {
  try {
    const alerts = (
      await t.gh.rest.codeScanning.listAlertsForRepo({
        ...repoParams(t),
        ref: `refs/pull/${pr}/head`,
        state: "open",
        per_page: 100,
      })
    ).data;
    for (const a of alerts) {
      fb.blocking = true;
      const loc = a.most_recent_instance?.location;
      fb.items.push(
        `[alert] ${a.rule.id ?? a.rule.name ?? "rule"}: ${a.most_recent_instance?.message?.text ?? a.rule.description ?? ""} @ ${loc?.path ?? "?"}:${loc?.start_line ?? "?"}`,
      );
    }
  } catch (err) {
    const s = statusOf(err);
    // Code scanning off, or no permission to read it: nothing to report.
    if (s !== 403 && s !== 404) {
      fb.alertsUnavailable = true;
      fb.unavailable.push(`[unavailable] code scanning alerts: ${describeGitHubError(err, t.apiBase)}`);
    }
  }
}

export function renderFeedback(fb: Feedback): string {
  const nothing = fb.items.length === 0 && fb.unavailable.length === 0;
  const lines: string[] = [];
  if (nothing) lines.push(`Reviews: clean (0 unresolved threads, 0 alerts)`);
  else {
    lines.push("PR Reviews:");
    const shown = fb.items.slice(0, MAX_ITEMS);
    lines.push(...shown);
    if (fb.items.length > MAX_ITEMS) lines.push(`... and ${fb.items.length - MAX_ITEMS} more`);
    lines.push(...fb.unavailable);
  }
  if (fb.resolved) lines.push(`${fb.resolved} resolved threads`);
  if (fb.withheld) lines.push(withheldLine(fb.withheld));
  return lines.join("\n");
}
