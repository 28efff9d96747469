import type { LoggingLevel, McpServer } from "@modelcontextprotocol/server";

/** What sending a log line needs of a request (a tool call's `CallRequest` has it). */
interface LogTarget {
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** 2026 era: a log line the SDK routes by the level in the request's `_meta`. */
  log?(level: LoggingLevel, data: unknown, logger: string): Promise<void>;
}

const SEVERITY: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/**
 * Log lines for the client, besides stderr. 2025 era: only once the client has sent `logging/setLevel`,
 * and only at or above that level. 2026 era: the SDK honours the level carried in each request's `_meta`.
 */
export class ClientLog {
  private level: LoggingLevel | undefined;

  constructor(private readonly era: "legacy" | "modern") {}

  /** Takes over `logging/setLevel` (the server must declare the `logging` capability). */
  attach(server: McpServer): void {
    if (this.era !== "legacy") return;
    server.server.setRequestHandler("logging/setLevel", async ({ params }) => {
      this.level = params.level;
      return {};
    });
  }

  /** Whether a line at `level` may reach the client (modern era: the SDK decides per request). */
  wants(level: LoggingLevel): boolean {
    if (this.era === "modern") return true;
    return this.level !== undefined && SEVERITY.indexOf(level) >= SEVERITY.indexOf(this.level);
  }

  async send(req: LogTarget, level: LoggingLevel, data: unknown): Promise<void> {
    try {
      if (this.era === "modern") {
        await req.log?.(level, data, "mcpfs");
        return;
      }
      if (!this.level || SEVERITY.indexOf(level) < SEVERITY.indexOf(this.level)) return;
      await req.notify({ method: "notifications/message", params: { level, logger: "mcpfs", data } });
    } catch {
      // A client that went away does not fail the call.
    }
  }
}
