import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import os from "node:os";
import type { HttpConfig } from "../config/index.js";

/** True for addresses that only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h === "::1") return true;
  if (net.isIPv4(h)) return h.startsWith("127.");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith("127.");
}

/**
 * Why the HTTP transport must not start with this configuration, or undefined when it may. Anything
 * but loopback can be reached from the network, so a bearer token is mandatory there.
 */
export function bindRefusal(http: HttpConfig): string | undefined {
  if (http.authToken !== undefined && http.authToken.trim() === "")
    return "Error: the auth token is empty (--auth-token or MCPFS_AUTH_TOKEN)";
  if (http.authToken !== undefined && http.authToken.length < 16 && !isLoopbackHost(http.host))
    return "Error: the auth token must be at least 16 characters when binding to a non-loopback address";
  if (!isLoopbackHost(http.host) && http.authToken === undefined)
    return (
      `Error: refusing to serve HTTP on ${http.host} without a bearer token: that address can be reached ` +
      "from other machines. Set --auth-token or MCPFS_AUTH_TOKEN, or bind to 127.0.0.1."
    );
  return undefined;
}

/**
 * Why an HTTP server with no command-line directories must not start, or undefined when it may. Over HTTP
 * client roots only narrow the command-line directories; with none, any local process that reaches the
 * port could name the whole filesystem as its root, so that takes an explicit flag and a bearer token.
 */
export function clientRootsRefusal(http: HttpConfig): string | undefined {
  if (!http.allowClientRoots)
    return (
      "Error: refusing to serve HTTP without directories: give the directories the server may access " +
      "(mcpfs --http DIR [DIR...]); client roots can then narrow them. To let each session's MCP roots " +
      "choose its directories instead, add --allow-client-roots and a bearer token (--auth-token or MCPFS_AUTH_TOKEN)."
    );
  if (http.authToken === undefined)
    return "Error: --allow-client-roots requires a bearer token (--auth-token or MCPFS_AUTH_TOKEN)";
  return undefined;
}

/** `Host` values (without port) a request may carry: the loopback names plus the bind address itself. */
export function allowedHostnames(bindHost: string): string[] {
  const out = new Set(["localhost", "127.0.0.1", "[::1]"]);
  const add = (h: string) => out.add(net.isIPv6(h) ? `[${h}]` : h.toLowerCase());
  const bare = bindHost.replace(/^\[|\]$/g, "");
  if (bare === "0.0.0.0" || bare === "::") {
    // A wildcard bind is reached through this machine's own addresses.
    for (const list of Object.values(os.networkInterfaces()))
      for (const a of list ?? []) add(a.address.replace(/%.*$/, ""));
  } else {
    add(bare);
  }
  return [...out];
}

/** Constant-time bearer check: both sides are hashed first so lengths never leak through timing. */
export function bearerMatcher(token: string): (req: IncomingMessage) => "ok" | "missing" | "invalid" {
  const want = createHash("sha256").update(token).digest();
  return (req) => {
    const header = req.headers.authorization;
    if (typeof header !== "string") return "missing";
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (!m) return "missing";
    const got = createHash("sha256").update(m[1]!).digest();
    return timingSafeEqual(want, got) ? "ok" : "invalid";
  };
}
