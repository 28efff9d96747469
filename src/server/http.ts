import { randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  hostHeaderValidation,
  NodeStreamableHTTPServerTransport,
  originValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import type { HttpConfig } from "../config/index.js";
import { Workspace } from "../core/workspace.js";
import { createServerFactory, type ServerDeps } from "./factory.js";
import { MAX_SESSION_SUBSCRIPTIONS } from "./file-watch.js";
import { allowedHostnames, bearerMatcher } from "./http-guard.js";
import { resolveResourceUri } from "./resources.js";

export interface HttpOptions {
  /** Largest accepted request body (413 above it). */
  maxBodyBytes?: number;
  /** A 2025-era session with no request for this long is closed. */
  sessionIdleMs?: number;
  /** Most 2025-era sessions open at once (503 above it). */
  maxSessions?: number;
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
const DRAIN_MS = 10_000;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  close(): Promise<void>;
  lastSeen: number;
  open: number;
}

/**
 * Streamable HTTP on `/mcp`. 2025-era clients get sessions (one McpServer + transport per session, the
 * SDK advisory GHSA-345p-7cg4-v4c7); 2026-era requests are served per request by the SDK's handler from
 * the same factory. Host and Origin are always checked (DNS rebinding), the bearer token when configured.
 */
export async function serveOverHttp(
  deps: ServerDeps,
  httpConfig: HttpConfig,
  opts: HttpOptions = {},
): Promise<RunningHttp> {
  const { log } = deps;
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const idleMs = opts.sessionIdleMs ?? SESSION_IDLE_MS;
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  const factory = createServerFactory(deps);
  const hostnames = allowedHostnames(httpConfig.host);
  const checkHost = hostHeaderValidation(hostnames);
  const checkOrigin = originValidation(hostnames);
  const checkBearer = httpConfig.authToken ? bearerMatcher(httpConfig.authToken) : undefined;

  const modern = createMcpHandler(() => factory({ era: "modern", subscriptions: "advertise" }), {
    legacy: "reject",
    maxRequestBodySize: maxBody,
    onerror: (err) => log.debug({ err }, "http (2026 era) request rejected or failed"),
  });
  const modernNode = toNodeHandler(modern, {
    maxRequestBodySize: maxBody,
    onerror: (err) => log.error({ err }, "http (2026 era) handler failed"),
  });
  // 2026-era clients have no roots: their workspace is the command line's.
  const modernWs = new Workspace(deps.roots, deps.config.surface, deps.urlOnlyReferences, {
    allowGitDirWrites: deps.config.allowGitDirWrites,
  });

  const sessions = new Map<string, Session>();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let shuttingDown = false;

  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (s.open === 0 && now - s.lastSeen > idleMs) {
          log.info(`Closing idle session ${id}`);
          void s.close();
        }
      }
    },
    Math.min(60_000, Math.max(1000, idleMs / 2)),
  );
  sweeper.unref();

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (sessions.size >= maxSessions) return jsonError(res, 503, -32000, "Too many open sessions");
    let session: Session | undefined;
    let closed = false;
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        if (session) sessions.set(id, session);
      },
      onsessionclosed: () => {
        void session?.close();
      },
    });
    const server = factory({
      era: "legacy",
      subscriptions: "serve",
      lazyRoots: true,
      clientRoots: "narrow",
    });
    session = {
      transport,
      lastSeen: Date.now(),
      open: 0,
      close: async () => {
        if (closed) return;
        closed = true;
        if (transport.sessionId) sessions.delete(transport.sessionId);
        await server.close().catch(() => {});
      },
    };
    const s = session;
    transport.onclose = () => {
      void s.close();
    };
    await server.connect(transport);
    await serveInSession(s, req, res, body);
  }

  async function serveInSession(s: Session, req: IncomingMessage, res: ServerResponse, body: unknown) {
    s.lastSeen = Date.now();
    s.open++;
    res.once("close", () => {
      s.open--;
      s.lastSeen = Date.now();
    });
    await s.transport.handleRequest(req, res, body);
  }

  async function serveLegacy(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const s = sessions.get(sid);
      if (!s) return jsonError(res, 404, -32001, "Session not found");
      return serveInSession(s, req, res, body);
    }
    if (req.method === "POST" && isInitializeRequest(body)) return openSession(req, res, body);
    return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
  }

  /** A 2026-era `subscriptions/listen` for resources: watch those files while the stream stays open. */
  async function watchListened(res: ServerResponse, body: unknown): Promise<void> {
    const uris = listenedUris(body);
    if (!deps.watch || uris.length === 0) return;
    const disposers: (() => void)[] = [];
    res.once("close", () => {
      for (const d of disposers) d();
    });
    for (const uri of new Set(uris)) {
      try {
        const target = await resolveResourceUri(modernWs, uri);
        if (res.closed) return;
        disposers.push(deps.watch.watch(target.real, () => modern.notify.resourceUpdated(uri)));
      } catch {
        // Outside the roots or missing: acknowledged by the SDK, never notified.
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/mcp") return jsonError(res, 404, -32000, "Not found: the MCP endpoint is /mcp");
    if (!checkHost(req, res) || !checkOrigin(req, res)) return;
    if (checkBearer) {
      const verdict = checkBearer(req);
      if (verdict !== "ok") {
        res.setHeader(
          "WWW-Authenticate",
          verdict === "missing"
            ? 'Bearer realm="mcpfs"'
            : 'Bearer realm="mcpfs", error="invalid_token", error_description="The bearer token is not valid"',
        );
        return jsonError(res, 401, -32000, "Unauthorized: a valid bearer token is required");
      }
    }
    if (shuttingDown) {
      res.setHeader("Connection", "close");
      return jsonError(res, 503, -32000, "Server is shutting down");
    }
    if (req.method !== "POST") {
      if (req.method === "GET" || req.method === "DELETE") return serveLegacy(req, res, undefined);
      res.setHeader("Allow", "GET, POST, DELETE");
      return jsonError(res, 405, -32000, "Method not allowed");
    }
    const type = String(req.headers["content-type"] ?? "").toLowerCase();
    if (!type.split(";")[0]!.trim().endsWith("application/json"))
      return jsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    const raw = await readBody(req, maxBody);
    if (raw === "too_large") {
      // The rest of the body is drained unbuffered (bounded by the server's requestTimeout).
      return jsonError(res, 413, -32000, `Payload Too Large: the limit is ${maxBody} bytes`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return jsonError(res, 400, -32700, "Parse error: the body is not valid JSON");
    }
    const probe = new Request(`http://localhost${url.pathname}`, {
      method: "POST",
      headers: webHeaders(req),
    });
    const longLived = isListen(body);
    if (!longLived) {
      inFlight++;
      res.once("close", () => {
        inFlight--;
        if (inFlight === 0) drained?.();
      });
    }
    if (await isLegacyRequest(probe, body, { maxRequestBodySize: maxBody }))
      return serveLegacy(req, res, body);
    if (longLived) void watchListened(res, body);
    await modernNode(req, res, body);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      log.error({ err }, "http request failed");
      if (!res.headersSent) jsonError(res, 500, -32603, "Internal error");
      else res.end();
    });
  });
  // requestTimeout (default 300 s) bounds receiving a request, not an SSE response: streams stay open.
  server.headersTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(httpConfig.port, httpConfig.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" || addr.address.includes(":") ? `[${addr.address}]` : addr.address;
  const endpoint = `http://${host}:${addr.port}/mcp`;

  let closing: Promise<void> | undefined;
  return {
    url: endpoint,
    close: () => {
      closing ??= (async () => {
        shuttingDown = true;
        clearInterval(sweeper);
        server.close();
        server.closeIdleConnections();
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, opts.drainMs ?? DRAIN_MS).unref();
          });
        }
        await Promise.all([...sessions.values()].map((s) => s.close()));
        await modern.close().catch(() => {});
        await deps.watch?.close();
        server.closeAllConnections();
      })();
      return closing;
    },
  };
}

function isListen(body: unknown): boolean {
  return (body as { method?: unknown } | null)?.method === "subscriptions/listen";
}

function listenedUris(body: unknown): string[] {
  const subs = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } })?.params
    ?.notifications?.resourceSubscriptions;
  // One listen stream holds at most a session's worth of subscriptions; the rest are never notified.
  return Array.isArray(subs)
    ? subs.filter((u): u is string => typeof u === "string").slice(0, MAX_SESSION_SUBSCRIPTIONS)
    : [];
}

function webHeaders(req: IncomingMessage): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    h.set(k, Array.isArray(v) ? v.join(", ") : v);
  }
  return h;
}

/** Reads the body, giving up (and draining the rest unbuffered) once it exceeds `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too_large"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve("too_large");
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.resume();
        resolve("too_large");
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
