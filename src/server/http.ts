import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import type { HttpConfig } from "../config/index.js";
import { createServerFactory, type ServerDeps } from "./factory.js";
import { readJsonBody, requestGuard } from "./http-guard.js";
import { type ModernEndpoint, modernEndpoint } from "./http-modern.js";
import { jsonError } from "./http-reply.js";
import { SessionRegistry } from "./http-sessions.js";
import { DRAIN_MS, isListen } from "./in-flight.js";

export interface HttpOptions {
  /** Largest accepted request body (413 above it). */
  maxBodyBytes?: number;
  /** A 2025-era session with no request for this long is closed. */
  sessionIdleMs?: number;
  /** Most 2025-era sessions open at once (the least recently used idle one closes above it). */
  maxSessions?: number;
  /** Most 2025-era sessions of one client program (its least recently used idle one closes above it). */
  maxPerClient?: number;
  /** How long shutdown waits for in-flight requests before closing anyway. */
  drainMs?: number;
}

export interface RunningHttp {
  /** The endpoint, e.g. http://127.0.0.1:3333/mcp */
  url: string;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes every session. */
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 8 * 1024 * 1024;
const SESSION_IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;
const MAX_PER_CLIENT = 100;

/**
 * Streamable HTTP on `/mcp`. 2025-era clients get sessions (`http-sessions.ts`); 2026-era requests are
 * served per request by the SDK's handler from the same factory (`http-modern.ts`). Every request passes
 * the guard first (`http-guard.ts`: endpoint, Host and Origin, bearer token, body).
 */
export async function serveOverHttp(
  deps: ServerDeps,
  httpConfig: HttpConfig,
  opts: HttpOptions = {},
): Promise<RunningHttp> {
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const factory = createServerFactory(deps);
  const routes: Routes = {
    admit: requestGuard(httpConfig.host, httpConfig.authToken),
    sessions: new SessionRegistry(factory, deps.log, {
      idleMs: opts.sessionIdleMs ?? SESSION_IDLE_MS,
      maxSessions: opts.maxSessions ?? MAX_SESSIONS,
      maxPerClient: opts.maxPerClient ?? MAX_PER_CLIENT,
    }),
    modern: modernEndpoint(deps, factory, maxBody),
    calls: new CallsInFlight(),
    maxBody,
    shuttingDown: false,
  };
  const server = http.createServer((req, res) => {
    route(routes, req, res).catch((err) => {
      deps.log.error({ err }, "http request failed");
      if (!res.headersSent) jsonError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  // requestTimeout (default 300 s) bounds receiving a request, not an SSE response: streams stay open.
  server.headersTimeout = 30_000;
  await listen(server, httpConfig);

  let closing: Promise<void> | undefined;
  return {
    url: endpointOf(server),
    close: () => {
      closing ??= shutDown(server, routes, deps, opts.drainMs ?? DRAIN_MS);
      return closing;
    },
  };
}

/** What routing needs: the guard, both eras' endpoints, the calls shutdown waits for. */
interface Routes {
  admit: (req: IncomingMessage, res: ServerResponse) => boolean;
  sessions: SessionRegistry;
  modern: ModernEndpoint;
  calls: CallsInFlight;
  maxBody: number;
  shuttingDown: boolean;
}

/** Guard, then method and era: GET and DELETE belong to sessions, a POST to the era it speaks. */
async function route(r: Routes, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!r.admit(req, res)) return;
  if (r.shuttingDown) {
    res.setHeader("Connection", "close");
    return jsonError(res, 503, -32000, "Server is shutting down");
  }
  if (req.method !== "POST") {
    if (req.method === "GET" || req.method === "DELETE") return r.sessions.serve(req, res, undefined);
    res.setHeader("Allow", "GET, POST, DELETE");
    return jsonError(res, 405, -32000, "Method not allowed");
  }
  const read = await readJsonBody(req, res, r.maxBody);
  if (!read) return;
  const { body } = read;
  if (!isListen(body)) r.calls.track(res);
  const probe = new Request("http://localhost/mcp", { method: "POST", headers: webHeaders(req) });
  if (await isLegacyRequest(probe, body, { maxRequestBodySize: r.maxBody }))
    return r.sessions.serve(req, res, body);
  await r.modern.serve(req, res, body);
}

/** The calls being answered (listen streams aside), so shutdown can let them finish. */
class CallsInFlight {
  private count = 0;
  private drained: (() => void) | undefined;

  track(res: ServerResponse): void {
    this.count++;
    res.once("close", () => {
      this.count--;
      if (this.count === 0) this.drained?.();
    });
  }

  /** Resolves once no call is in flight, or after `ms` at most. */
  settle(ms: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = resolve;
      setTimeout(resolve, ms).unref();
    });
  }
}

/** Stops accepting, lets calls in flight finish (bounded), then closes every session and stream. */
async function shutDown(server: http.Server, r: Routes, deps: ServerDeps, drainMs: number): Promise<void> {
  r.shuttingDown = true;
  r.sessions.stopSweeping();
  server.close();
  server.closeIdleConnections();
  await r.calls.settle(drainMs);
  await r.sessions.closeAll();
  await r.modern.close();
  await deps.watch?.close();
  server.closeAllConnections();
}

function listen(server: http.Server, httpConfig: HttpConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(httpConfig.port, httpConfig.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function endpointOf(server: http.Server): string {
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" || addr.address.includes(":") ? `[${addr.address}]` : addr.address;
  return `http://${host}:${addr.port}/mcp`;
}

function webHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    h.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return h;
}
