import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import net from "node:net";
import os from "node:os";
import { hostHeaderValidation, originValidation } from "@modelcontextprotocol/node";
import type { HttpConfig } from "../config/index.js";
import { jsonError } from "./http-reply.js";

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
  if (http.noAuth && http.authToken !== undefined)
    return "Error: --no-auth contradicts the auth token (--auth-token or MCPFS_AUTH_TOKEN): give one of them";
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

/**
 * The checks every request passes before MCP sees it: the endpoint is `/mcp`, Host and Origin name this
 * server (DNS rebinding), and the bearer token matches when one is configured. A refused request is
 * answered here (false).
 */
export function requestGuard(
  bindHost: string,
  authToken: string | undefined,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const hostnames = allowedHostnames(bindHost);
  const checkHost = hostHeaderValidation(hostnames);
  const checkOrigin = originValidation(hostnames);
  const checkBearer = authToken ? bearerMatcher(authToken) : undefined;
  return (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/mcp") {
      jsonError(res, 404, -32000, "Not found: the MCP endpoint is /mcp");
      return false;
    }
    if (!checkHost(req, res) || !checkOrigin(req, res)) return false;
    const verdict = checkBearer?.(req) ?? "ok";
    if (verdict === "ok") return true;
    res.setHeader(
      "WWW-Authenticate",
      verdict === "missing"
        ? 'Bearer realm="mcpfs"'
        : 'Bearer realm="mcpfs", error="invalid_token", error_description="The bearer token is not valid"',
    );
    jsonError(res, 401, -32000, "Unauthorized: a valid bearer token is required");
    return false;
  };
}

/** A POST's body as JSON, or undefined once it was refused (415 not JSON, 413 too large, 400 unparsable). */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  maxBody: number,
): Promise<{ body: unknown } | undefined> {
  const type = String(req.headers["content-type"] ?? "").toLowerCase();
  if (!type.split(";")[0]!.trim().endsWith("application/json")) {
    jsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    return undefined;
  }
  const raw = await readBody(req, maxBody);
  if (raw === "too_large") {
    // The rest of the body is drained unbuffered (bounded by the server's requestTimeout).
    jsonError(res, 413, -32000, `Payload Too Large: the limit is ${maxBody} bytes`);
    return undefined;
  }
  try {
    return { body: JSON.parse(raw.toString("utf8")) };
  } catch {
    jsonError(res, 400, -32700, "Parse error: the body is not valid JSON");
    return undefined;
  }
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
