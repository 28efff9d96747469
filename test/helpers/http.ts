/**
 * HTTP harness: starts the INSTALLED package (see server.ts) with `--http` on a loopback address (port 0), reads the URL it
 * logs, and connects the SDK's own Streamable HTTP clients (v1: 2025-11-25 sessions; v2: 2026-07-28).
 * Only loopback addresses (127.0.0.0/8, ::1) are ever used. Every tool reply is checked against the
 * tool's outputSchema (see reply-schema.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { checkRepliesOf, clientValidator } from "./reply-schema.js";
import { assertInstalled, MCPFS_BIN, SERVER_NODE, type TextResult, toText } from "./server.js";

export interface HttpServerProcess {
  url: string;
  /** The bearer token the helper chose (`connectHttp` and `rawPost` send it to this url by default). */
  token?: string;
  proc: ChildProcess;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The tokens the helper chose, by server url: its clients send them unless told otherwise. */
const tokens = new Map<string, string>();

export async function startHttpServer(
  args: string[],
  /** `token: false`: the helper chooses no token (the server then generates its own, or runs --no-auth). */
  opts: { env?: Record<string, string>; host?: string; cwd?: string; token?: false } = {},
): Promise<HttpServerProcess> {
  const host = opts.host ?? "127.0.0.1";
  // HTTP authenticates by default: a token the test did not choose (nor --no-auth) is chosen here.
  const own =
    opts.token !== false &&
    !args.includes("--no-auth") &&
    !args.includes("--auth-token") &&
    !opts.env?.MCPFS_AUTH_TOKEN;
  const token = own ? randomBytes(24).toString("hex") : undefined;
  const auth = token ? ["--auth-token", token] : [];
  assertInstalled(MCPFS_BIN);
  const proc = spawn(SERVER_NODE, [MCPFS_BIN, "--http", "--host", host, "--port", "0", ...auth, ...args], {
    cwd: opts.cwd,
    env: { ...(process.env as Record<string, string>), ...(opts.env ?? {}) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 45_000);
    proc.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${err}`));
    });
  });
  if (token) tokens.set(url, token);
  return {
    url,
    token,
    proc,
    stderr: () => err,
    stop: async (signal = "SIGTERM") => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}

export interface HttpConnection {
  // biome-ignore lint/suspicious/noExplicitAny: the two SDK generations have different client types
  client: any;
  call(name: string, args?: Record<string, unknown>): Promise<TextResult>;
  close(): Promise<void>;
  /** 2025 era: the session id the server assigned. */
  sessionId?: string;
}

export async function connectHttp(
  url: string,
  opts: { client?: "v1" | "v2"; roots?: string[]; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpConnection> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  const token = opts.token ?? tokens.get(url);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.client === "v2") {
    const transport = new HttpV2(new URL(url), { requestInit: { headers } });
    const client = new ClientV2(
      { name: "mcpfs-http-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(transport);
    await checkRepliesOf(client);
    return {
      client,
      call: async (name, a = {}) => toText(await client.callTool({ name, arguments: a })),
      close: () => client.close(),
    };
  }
  const transport = new HttpV1(new URL(url), { requestInit: { headers } });
  const roots = opts.roots;
  const client = new ClientV1(
    { name: "mcpfs-http-v1", version: "1.0.0" },
    { capabilities: roots ? { roots: { listChanged: true } } : {}, jsonSchemaValidator: clientValidator },
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((d) => ({ uri: `file://${d}`, name: path.basename(d) })),
    }));
  }
  await client.connect(transport);
  await checkRepliesOf(client);
  return {
    client,
    sessionId: transport.sessionId,
    call: async (name, a = {}) => toText((await client.callTool({ name, arguments: a })) as never),
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

/** A raw HTTP POST of a JSON-RPC initialize, for header-level checks (Origin, Host, auth, size). */
export async function rawPost(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(tokens.has(url) ? { Authorization: `Bearer ${tokens.get(url)}` } : {}),
      ...headers,
    },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1.0.0" },
  },
});
