import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import type { Logger } from "../core/log.js";
import type { createServerFactory } from "./factory.js";
import { jsonError } from "./http-reply.js";

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  close(): Promise<void>;
  lastSeen: number;
  /** Requests of this session still being answered (an open stream among them). */
  open: number;
  /** The client program that opened it (`clientInfo.name` of its initialize request). */
  client: string;
}

export interface SessionLimits {
  /** A session with no request for this long is closed. */
  idleMs: number;
  /** Most sessions open at once: above it the least recently used idle session is closed (503 if none). */
  maxSessions: number;
  /** Most sessions of one client program: above it that client's least recently used idle one is closed. */
  maxPerClient: number;
}

/**
 * The 2025-era sessions of one HTTP server: one McpServer and transport per session (the SDK advisory
 * GHSA-345p-7cg4-v4c7), found by `mcp-session-id`, opened by an initialize request, closed by the client,
 * by the transport, after `idleMs` without a request, or all at once at shutdown.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly factory: ReturnType<typeof createServerFactory>,
    private readonly log: Logger,
    private readonly limits: SessionLimits,
  ) {
    const { idleMs } = limits;
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, Math.max(1000, idleMs / 2)));
    this.sweeper.unref();
  }

  /** Serves a 2025-era request: in its session, or opening one for an initialize request. */
  async serve(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const s = this.sessions.get(sid);
      if (!s) return jsonError(res, 404, -32001, "Session not found");
      return serveIn(s, req, res, body);
    }
    if (req.method === "POST" && isInitializeRequest(body)) return this.open(req, res, body);
    return jsonError(res, 400, -32000, "Bad Request: No valid session ID provided");
  }

  /** No more idle closing (shutdown closes them all). */
  stopSweeping(): void {
    clearInterval(this.sweeper);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close()));
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) {
      if (s.open === 0 && now - s.lastSeen > this.limits.idleMs) {
        this.log.info(`Closing idle session ${id}`);
        void s.close();
      }
    }
  }

  /**
   * Room for one more session of `client`, made by closing the least recently used idle session (that
   * client's own when it is at its cap), so a client that leaks sessions cannot lock the others out.
   * False when every candidate is busy.
   */
  private async makeRoom(client: string): Promise<boolean> {
    const all = [...this.sessions.values()];
    const own = all.filter((s) => s.client === client);
    const pool =
      own.length >= this.limits.maxPerClient ? own : all.length >= this.limits.maxSessions ? all : undefined;
    if (!pool) return true;
    const idle = pool.filter((s) => s.open === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
    if (!idle) return false;
    this.log.info(
      `Closing the least recently used session of ${client === idle.client ? "this" : "another"} client to open one`,
    );
    await idle.close();
    return true;
  }

  private async open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const client = clientName(body);
    if (!(await this.makeRoom(client))) return jsonError(res, 503, -32000, "Too many open sessions");
    const sessions = this.sessions;
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
    const server = this.factory({
      era: "legacy",
      subscriptions: "serve",
      lazyRoots: true,
      clientRoots: "narrow",
    });
    const s: Session = {
      transport,
      lastSeen: Date.now(),
      open: 0,
      client,
      close: async () => {
        if (closed) return;
        closed = true;
        if (transport.sessionId) sessions.delete(transport.sessionId);
        await server.close().catch(() => {});
      },
    };
    session = s;
    transport.onclose = () => {
      void s.close();
    };
    await server.connect(transport);
    await serveIn(s, req, res, body);
  }
}

/**
 * Who opens a session, for the per-client cap: the client program's name from its initialize request. Any
 * local process can name itself anything (all of them come from loopback), so this bounds a client that
 * leaks sessions, not a hostile one: the bearer token keeps those out.
 */
function clientName(body: unknown): string {
  const name = (body as { params?: { clientInfo?: { name?: unknown } } })?.params?.clientInfo?.name;
  return typeof name === "string" ? name.slice(0, 100) : "";
}

async function serveIn(s: Session, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  s.lastSeen = Date.now();
  s.open++;
  res.once("close", () => {
    s.open--;
    s.lastSeen = Date.now();
  });
  await s.transport.handleRequest(req, res, body);
}
