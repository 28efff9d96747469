/**
 * Black-box harness: starts the INSTALLED package (packed and installed with --omit=dev outside the
 * repository by installed-package.ts, the black-box tiers' globalSetup) as a child process and talks to it
 * through the MCP SDK's own clients over stdio — the v1 client (2025-11-25) or the v2 client pinned to
 * 2026-07-28. Every tool reply is checked against the tool's outputSchema (see reply-schema.ts).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, inject } from "vitest";
import { checkRepliesOf, clientValidator } from "./reply-schema.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NOT_INSTALLED = "(no installed package: the black-box tiers' globalSetup installs it)";
/**
 * The installed package's executable. Only a black-box tier provides it (a unit test has no server to
 * start); the repository's dist/ is never started, as its node_modules would hide what the package lacks.
 */
export const MCPFS_BIN: string = inject("mcpfsBin") ?? NOT_INSTALLED;

/** Throws when a test starts the server outside a black-box tier. */
export function assertInstalled(bin: string): void {
  if (bin === NOT_INSTALLED)
    throw new Error("this test starts the server: run it in a black-box tier (its globalSetup installs it)");
}
/**
 * The Node that runs the server under test: the one that ran npm (the machine's, Node >= 20, what users
 * run), not the Node 22 of the conformance devDependency, which npm puts first on PATH as `node`.
 */
export const SERVER_NODE = process.env.npm_node_execpath || process.execPath;
export const OFFICIAL_BIN = path.join(
  ROOT,
  "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
);

export interface TextResult {
  /** The tool's own text blocks, joined (a mutating tool's trailing change-id block is in `change`). */
  text: string;
  /** The undo journal's line a mutating tool's reply ends with ("Change <id> ..."), when there is one. */
  change?: string;
  isError: boolean;
  structured?: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: raw result for content-type specific assertions
  raw: any;
}

export interface Connection {
  /** Calls a tool and returns its first text block (or all text blocks joined). */
  call(name: string, args?: Record<string, unknown>): Promise<TextResult>;
  // biome-ignore lint/suspicious/noExplicitAny: the two SDK generations have different client types
  client: any;
  stderr(): string;
  close(): Promise<void>;
  /** v1 client with roots: replace the roots the client exposes and notify the server. */
  setRoots(dirs: string[]): Promise<void>;
  pid: number | null;
}

export interface StartOptions {
  /** `v1` (2025-11-25, default) or `v2` (2026-07-28 pinned). */
  client?: "v1" | "v2";
  cwd?: string;
  env?: Record<string, string>;
  /** Makes the v1 client advertise roots and answer roots/list with these directories. */
  roots?: string[];
  /** Delay, in ms, before the v1 client answers roots/list (to test calls racing the fetch). */
  rootsDelayMs?: number;
  /**
   * Full control of the v1 client's roots/list answers (advertises roots): called with the 0-based index of
   * each request, resolves to the directories to answer with, whenever the test decides.
   */
  rootsHandler?: (request: number) => Promise<string[]>;
  /** Server entry point (default: mcpfs's built CLI). */
  bin?: string;
  /** The Node that runs it (default: SERVER_NODE). */
  node?: string;
  /** A call's timeout; by default the test's own (120 s): on a loaded machine no shorter clock may fail a test. */
  timeoutMs?: number;
}

const CHANGE_LINE = /^Change [0-9a-z]{9}-[0-9a-f]{12}\b/;

/** A tool result as the tests read it: its text blocks joined, the error flag, the structured content. */
export function toText(raw: {
  content?: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: unknown;
}) {
  const blocks = (raw.content ?? []).filter((c) => c.type === "text").map((c) => c.text ?? "");
  // The runner adds the change's line as a block of its own, after the tool's text (kept as the original's).
  const change = blocks.length > 1 && CHANGE_LINE.test(blocks.at(-1)!) ? blocks.pop() : undefined;
  return {
    text: blocks.join("\n"),
    ...(change !== undefined ? { change } : {}),
    isError: raw.isError === true,
    structured: raw.structuredContent as Record<string, unknown> | undefined,
    raw,
  };
}

export async function startServer(args: string[], opts: StartOptions = {}): Promise<Connection> {
  const bin = opts.bin ?? MCPFS_BIN;
  assertInstalled(bin);
  const node = opts.node ?? SERVER_NODE;
  const env = { ...(process.env as Record<string, string>), ...(opts.env ?? {}) };
  let stderrBuf = "";
  const timeout = opts.timeoutMs ?? 120_000;
  if (opts.client === "v2") {
    const transport = new StdioV2({
      command: node,
      args: [bin, ...args],
      cwd: opts.cwd,
      env,
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d: Buffer) => {
      stderrBuf += d.toString();
    });
    const client = new ClientV2(
      { name: "mcpfs-test-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(transport);
    await checkRepliesOf(client);
    return {
      client,
      call: async (name, a = {}) => toText(await client.callTool({ name, arguments: a }, { timeout })),
      stderr: () => stderrBuf,
      close: () => client.close(),
      setRoots: async () => {
        throw new Error("roots are not part of the 2026-07-28 era");
      },
      pid: transport.pid,
    };
  }
  const transport = new StdioV1({
    command: node,
    args: [bin, ...args],
    cwd: opts.cwd,
    env,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => {
    stderrBuf += d.toString();
  });
  let roots = opts.roots;
  const client = new ClientV1(
    { name: "mcpfs-test-v1", version: "1.0.0" },
    {
      capabilities: roots || opts.rootsHandler ? { roots: { listChanged: true } } : {},
      jsonSchemaValidator: clientValidator,
    },
  );
  if (opts.rootsHandler) {
    const handler = opts.rootsHandler;
    let n = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (await handler(n++)).map((d) => ({ uri: `file://${d}`, name: path.basename(d) })),
    }));
  } else if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      const answer = (roots ?? []).map((d) => ({ uri: `file://${d}`, name: path.basename(d) }));
      if (opts.rootsDelayMs) await new Promise((r) => setTimeout(r, opts.rootsDelayMs));
      return { roots: answer };
    });
  }
  await client.connect(transport);
  await checkRepliesOf(client);
  return {
    client,
    call: async (name, a = {}) =>
      toText((await client.callTool({ name, arguments: a }, undefined, { timeout })) as never),
    stderr: () => stderrBuf,
    close: () => client.close(),
    setRoots: async (dirs) => {
      roots = dirs;
      await client.sendRootsListChanged();
    },
    pid: transport.pid,
  };
}

/** Runs the CLI to completion (for startup-error tests): exit code, stdout, stderr. */
export async function runCli(
  args: string[],
  opts: { cwd?: string; timeoutMs?: number; input?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawn } = await import("node:child_process");
  assertInstalled(MCPFS_BIN);
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER_NODE, [MCPFS_BIN, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...(opts.env ?? {}) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin.end(opts.input);
  });
}

/** A `startServer` whose connections are all closed after the file's tests (for files that start many). */
export function serverPool(): typeof startServer {
  const open: Connection[] = [];
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });
  return async (...args) => {
    const c = await startServer(...args);
    open.push(c);
    return c;
  };
}
