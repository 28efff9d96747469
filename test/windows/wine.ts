/**
 * Runs an MCP server under Wine with the Windows Node from npm, and talks to it through the MCP SDK's own
 * client over a loopback socket (stdio-shim.cjs makes that socket the server's stdin/stdout: Wine cannot
 * give Windows Node a pipe). Set up by scripts/test-windows.mjs, which passes MCPFS_WINE, MCPFS_WINE_NODE
 * and WINEPREFIX.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(here, "../..");

export interface WineSetup {
  wine: string;
  nodeExe: string;
  prefix: string;
}

export function wineSetup(): WineSetup {
  const wine = process.env.MCPFS_WINE;
  const nodeExe = process.env.MCPFS_WINE_NODE;
  const prefix = process.env.WINEPREFIX;
  if (!wine || !nodeExe || !prefix)
    throw new Error("run through `npm run test:windows` (scripts/test-windows.mjs)");
  return { wine, nodeExe, prefix };
}

/** The Windows spelling of a Linux path: drive C is the prefix's drive_c, everything else is Z:. */
export function toWin(linuxPath: string, setup: WineSetup): string {
  const driveC = path.join(setup.prefix, "drive_c");
  const rel = path.relative(driveC, linuxPath);
  if (!rel.startsWith("..") && !path.isAbsolute(rel)) return `C:\\${rel.split("/").join("\\")}`;
  return `Z:${linuxPath.split("/").join("\\")}`;
}

/** The client side of the socket, as an SDK transport (newline-delimited JSON, as stdio). */
class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly socket: net.Socket) {}

  async start(): Promise<void> {
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let msg: JSONRPCMessage | null;
        try {
          msg = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err as Error);
          continue;
        }
        if (!msg) break;
        this.onmessage?.(msg);
      }
    });
    this.socket.on("close", () => this.onclose?.());
    this.socket.on("error", (err) => this.onerror?.(err));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.socket.write(serializeMessage(message), (err) => (err ? reject(err) : resolve())),
    );
  }

  async close(): Promise<void> {
    this.socket.end();
  }
}

export interface WineResult {
  text: string;
  isError: boolean;
  structured?: Record<string, unknown>;
}

export interface WineConnection {
  call(name: string, args?: Record<string, unknown>): Promise<WineResult>;
  tools(): Promise<string[]>;
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `entry` (a Linux path to a JS file) under Wine with Windows-style `args`. */
export async function startUnderWine(
  setup: WineSetup,
  entry: string,
  args: string[],
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<WineConnection> {
  const timeout = opts.timeoutMs ?? 60_000;
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  const logFile = path.join(setup.prefix, "drive_c", `mcpfs-wine-${port}.log`);
  const log = fs.openSync(logFile, "w");
  const child: ChildProcess = spawn(
    setup.wine,
    [
      setup.nodeExe,
      toWin(path.join(here, "stdio-shim.cjs"), setup),
      String(port),
      toWin(entry, setup),
      ...args,
    ],
    {
      env: { ...process.env, WINEDEBUG: "-all", NODE_SKIP_PLATFORM_CHECK: "1", ...opts.env },
      stdio: ["ignore", log, log],
    },
  );
  fs.closeSync(log);
  const stderr = () => fs.readFileSync(logFile, "utf8");
  let socket: net.Socket;
  try {
    socket = await new Promise<net.Socket>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no connection from Wine in ${timeout} ms`)), timeout);
      child.once("exit", (code) => reject(new Error(`server under Wine exited (${code}): ${stderr()}`)));
      server.once("connection", (s) => {
        clearTimeout(timer);
        resolve(s);
      });
    });
  } catch (err) {
    child.kill("SIGKILL");
    server.close();
    throw err;
  }
  server.close();
  const client = new Client({ name: "mcpfs-wine-test", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new SocketTransport(socket), { timeout });
  return {
    async call(name, a = {}) {
      const raw = (await client.callTool({ name, arguments: a }, undefined, { timeout })) as {
        content?: { type: string; text?: string }[];
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
      };
      const text = (raw.content ?? [])
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("\n");
      return { text, isError: raw.isError === true, structured: raw.structuredContent };
    },
    async tools() {
      return (await client.listTools(undefined, { timeout })).tools.map((t) => t.name);
    },
    stderr,
    async close() {
      await client.close().catch(() => {});
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        else child.once("exit", () => resolve());
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
      fs.rmSync(logFile, { force: true });
    },
  };
}
