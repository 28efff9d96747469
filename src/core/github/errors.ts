import { GitHubTimeoutError } from "./client.js";

/** A failure already phrased for the client (the tool prints `Error: <message>`). */
export class GitHubToolError extends Error {
  override name = "GitHubToolError";
}

interface HttpishError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

export function statusOf(err: unknown): number | undefined {
  const s = (err as HttpishError | undefined)?.status;
  return typeof s === "number" ? s : undefined;
}

function apiMessage(err: HttpishError): string {
  const data = err.response?.data as
    | { message?: string; errors?: { message?: string; code?: string; field?: string }[] }
    | undefined;
  const base = data?.message ?? err.message ?? "";
  const details = (data?.errors ?? [])
    .map((e) => e.message ?? [e.field, e.code].filter(Boolean).join(" "))
    .filter(Boolean);
  return details.length ? `${base} (${details.join("; ")})` : base;
}

function isRateLimited(err: HttpishError): boolean {
  const h = err.response?.headers ?? {};
  return (
    ((err.status === 403 || err.status === 429) && h["x-ratelimit-remaining"] === "0") ||
    /rate limit/i.test(apiMessage(err))
  );
}

/** One line describing any failure of a GitHub call; never includes the token. */
export function describeGitHubError(err: unknown, apiBase: string): string {
  if (err instanceof GitHubToolError) return err.message;
  if (err instanceof GitHubTimeoutError || (err as { timedOut?: boolean })?.timedOut)
    return `GitHub request timed out after ${Math.round((err as GitHubTimeoutError).ms / 100) / 10}s (${apiBase})`;
  const e = err as HttpishError;
  const status = statusOf(err);
  if (status === undefined || (status === 500 && !e.response)) {
    const msg = e?.message ?? String(err);
    return `GitHub API host unreachable (${apiBase}): ${msg}`;
  }
  if (isRateLimited(e)) {
    const reset = Number(e.response?.headers?.["x-ratelimit-reset"]);
    const when =
      Number.isFinite(reset) && reset > 0 ? ` (resets at ${new Date(reset * 1000).toISOString()})` : "";
    return `GitHub API rate limit exceeded${when}`;
  }
  const msg = apiMessage(e);
  if (status === 401) return `GitHub authentication failed (401 ${msg}): check the token`;
  if (status === 403) return `GitHub denied access (403): ${msg}`;
  if (status === 404) return `Not found (404) at ${apiBase}`;
  if (status === 422) return `GitHub rejected the request (422): ${msg}`;
  if (status >= 500) return `GitHub server error (${status}): ${msg || "try again later"}`;
  return `GitHub request failed (${status}): ${msg}`;
}

/** A short reason for partial-failure reports: GitHub's own message when there is one. */
export function shortReason(err: unknown): string {
  if (err instanceof GitHubToolError) return err.message;
  const data = (err as HttpishError)?.response?.data as { message?: string } | undefined;
  if (data?.message) return data.message;
  return err instanceof Error ? err.message : String(err);
}
