/**
 * The mcp tier's harness: the server factory of src/ (as the CLI builds it from the same arguments) in this
 * process, reached by the MCP SDK's v1 client over an in-memory transport. No build, no spawn; every reply
 * is still checked against the tool's outputSchema (reply-schema.ts). Same `Connection` as the black-box
 * harness (server.ts), so a test moves between the tiers by its import. What needs a real process (a pid,
 * stdio framing, signals, a working directory, the 2026-07-28 client) stays in test/e2e.
 */
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import pino from "pino";
import { afterAll } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { applyEnvironment } from "../../src/cli/environment.js";
import { plainDirectories } from "../../src/cli/plain-args.js";
import { resolveStartupRoots } from "../../src/cli/startup.js";
import type { Journal } from "../../src/core/journal/journal.js";
import { createServerFactory } from "../../src/server/factory.js";
import { loadTools, policyFor } from "../../src/surfaces/index.js";
import { checkRepliesOf, clientValidator } from "./reply-schema.js";
import { type Connection, type StartOptions, toText } from "./server.js";

const VERSION = "0.0.0-in-process";
const LEVEL = { DEBUG: "debug", INFO: "info", WARNING: "warn", ERROR: "error", CRITICAL: "fatal" } as const;

const LABEL: Record<number, string> = { 20: "DEBUG", 30: "INFO", 40: "WARNING", 50: "ERROR", 60: "CRITICAL" };

/** Where the server's log lines go, kept for `stderr()` as the child's stderr would be (its wording too). */
function capture(): { stream: Writable; write: (line: string) => void; text: () => string } {
  let buf = "";
  const write = (line: string) => {
    buf += `${line}\n`;
  };
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        const { level, msg, time: _t, ...rest } = JSON.parse(line);
        const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
        write(`${LABEL[level as number] ?? level}: ${msg}${extra}`);
      }
      done();
    },
  });
  return { stream, write, text: () => buf };
}

/** The deps the CLI would serve with for `args` (its own parser, environment and start-up roots). */
async function depsFor(args: string[], env: NodeJS.ProcessEnv, err: ReturnType<typeof capture>) {
  const plain = plainDirectories(args);
  const outcome = plain ? ({ kind: "config", config: plain } as const) : parseArgs(args, VERSION, env);
  if (outcome.kind === "exit") throw new Error(`in-process server: arguments refused: ${outcome.stderr}`);
  const config = outcome.config;
  applyEnvironment(config, env);
  const log = pino({ level: LEVEL[config.logLevel], base: undefined }, err.stream);
  const startup = await resolveStartupRoots(config, log, err.write);
  const stateDir = config.stateDir ?? env.MCPFS_STATE_DIR;
  let journal: Journal | undefined;
  if (config.journal && startup.roots.some((r) => r.mode === "rw") && stateDir) {
    const { Journal } = await import("../../src/core/journal/journal.js");
    const { journalMaxBytes: maxBytes, journalMaxDays: maxDays, journalMinAgeMs: minAgeMs } = config;
    journal = new Journal({ stateDir, log, maxBytes, maxDays, minAgeMs });
  }
  return {
    config,
    policy: policyFor(config),
    log,
    version: VERSION,
    roots: startup.roots,
    extraRoots: startup.extraRoots,
    urlOnlyReferences: startup.urlOnlyReferences,
    tools: await loadTools(config),
    journal,
  };
}

/** Starts the server of `args` in this process and connects the v1 client to it. */
export async function startServer(args: string[], opts: StartOptions = {}): Promise<Connection> {
  if (opts.client === "v2" || opts.cwd || opts.bin || opts.node)
    throw new Error("in-process server: the 2026-07-28 client, cwd, bin and node need test/e2e");
  const env = { ...process.env, ...(opts.env ?? {}) };
  const err = capture();
  const deps = await depsFor(args, env, err);
  const server = createServerFactory(deps)({ era: "legacy", subscriptions: "none" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  let roots = opts.roots;
  const client = new Client(
    { name: "mcpfs-test-in-process", version: "1.0.0" },
    {
      capabilities: roots || opts.rootsHandler ? { roots: { listChanged: true } } : {},
      jsonSchemaValidator: clientValidator,
    },
  );
  if (opts.rootsHandler) {
    const handler = opts.rootsHandler;
    let n = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: (await handler(n++)).map((d) => ({ uri: `file://${d}`, name: d })),
    }));
  } else if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      const answer = (roots ?? []).map((d) => ({ uri: `file://${d}`, name: d }));
      if (opts.rootsDelayMs) await new Promise((r) => setTimeout(r, opts.rootsDelayMs));
      return { roots: answer };
    });
  }
  await client.connect(clientSide);
  await checkRepliesOf(client);
  const timeout = opts.timeoutMs ?? 120_000;
  return {
    client,
    call: async (name, a = {}) =>
      toText((await client.callTool({ name, arguments: a }, undefined, { timeout })) as never),
    stderr: err.text,
    close: async () => {
      await client.close();
      await server.close();
    },
    setRoots: async (dirs) => {
      roots = dirs;
      await client.sendRootsListChanged();
    },
    pid: null,
  };
}

/** A `startServer` whose connections are all closed after the file's tests. */
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
export type { Connection, TextResult } from "./server.js";
