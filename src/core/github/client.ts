export type GitHub = InstanceType<typeof import("./octokit-libs.js").GitHubOctokit>;

export interface ClientOptions {
  token: string;
  baseUrl: string;
  timeoutMs: number;
  userAgent?: string;
  log?: { warn(msg: string): void };
}

/** Marks a request that ran out of time; named AbortError so the retry plugin does not repeat it. */
export class GitHubTimeoutError extends Error {
  override name = "AbortError";
  readonly timedOut = true;
  constructor(readonly ms: number) {
    super(`request timed out after ${Math.round(ms / 100) / 10}s`);
  }
}

/** fetch with a per-request deadline (headers and body), composed with the caller's own signal. */
function timedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const timer = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timer]) : timer;
    try {
      const res = await fetch(input, { ...init, signal });
      // Read the body under the same deadline so a stalled body cannot hang the call.
      const body = await res.arrayBuffer();
      return new Response(res.status === 204 || res.status === 304 ? null : body, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (err) {
      if (timer.aborted) throw new GitHubTimeoutError(timeoutMs);
      throw err;
    }
  };
}

/** An Octokit with bounded time per request, two retries on server errors, and rate-limit handling. */
export async function makeClient(opts: ClientOptions): Promise<GitHub> {
  const { GitHubOctokit } = await import("./octokit-libs.js");
  const warn = (m: string) => opts.log?.warn(m);
  return new GitHubOctokit({
    auth: opts.token,
    baseUrl: opts.baseUrl,
    userAgent: opts.userAgent ?? "mcpfs",
    request: { fetch: timedFetch(opts.timeoutMs) },
    retry: { retries: 2 },
    throttle: {
      // Wait once for a short reset; a long one is reported to the caller rather than blocking the tool.
      onRateLimit: (retryAfter: number, _o: unknown, _k: unknown, retryCount: number) => {
        warn(`GitHub rate limit hit; retry after ${retryAfter}s`);
        return retryCount < 1 && retryAfter <= 10;
      },
      onSecondaryRateLimit: (retryAfter: number, _o: unknown, _k: unknown, retryCount: number) => {
        warn(`GitHub secondary rate limit hit; retry after ${retryAfter}s`);
        return retryCount < 1 && retryAfter <= 10;
      },
    },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}
