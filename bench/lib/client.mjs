// Talks to a server through the MCP SDK's own Client over stdio, with a line transport whose read buffer
// has no 10 MiB cap (the stock one drops the connection on the official server's 30 MiB replies).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { cpuNs } from "./cpu-ns.mjs";

class LineTransport {
  constructor(command, args, env) {
    this.command = command;
    this.args = args;
    this.env = env;
  }

  async start() {
    this.child = spawn(this.command, this.args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ...this.env },
    });
    this.pid = this.child.pid;
    this.stderr = "";
    this.child.stderr.on("data", (d) => {
      if (this.stderr.length < 20_000) this.stderr += d;
    });
    let chunks = [];
    this.child.stdout.on("data", (d) => {
      let start = 0;
      for (let nl = d.indexOf(10); nl !== -1; nl = d.indexOf(10, start)) {
        chunks.push(d.subarray(start, nl));
        const line = Buffer.concat(chunks).toString("utf8");
        chunks = [];
        start = nl + 1;
        this.lastBytes = line.length;
        try {
          const msg = JSON.parse(line);
          // When the tools/list answer arrived, before the client's own validation of it.
          if (msg?.result?.tools && this.toolsAt === undefined) {
            this.toolsAt = performance.now();
            // The server's CPU then: its start-up, before any work it defers to after the list (a warm-up).
            this.toolsCpuMs = (cpuNs(this.pid) ?? Number.NaN) / 1e6;
          }
          this.onmessage?.(msg);
        } catch (err) {
          this.onerror?.(err);
        }
      }
      if (start < d.length) chunks.push(d.subarray(start));
    });
    this.child.on("exit", () => this.onclose?.());
    this.child.on("error", (e) => this.onerror?.(e));
  }

  async send(msg) {
    const ok = this.child.stdin.write(`${JSON.stringify(msg)}\n`);
    if (!ok) await new Promise((r) => this.child.stdin.once("drain", r));
  }

  async close() {
    this.child.stdin.end();
    this.child.kill("SIGTERM");
  }
}

/**
 * The Node the servers run on: the one that ran npm (the machine's), not the Node 22 of the conformance
 * devDependency that `npm run` puts first on PATH.
 */
export const SERVER_NODE = process.env.npm_node_execpath || process.execPath;

/** VmHWM (peak RSS) and VmRSS of a process, in MiB, from /proc. */
export function memOf(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? Number.NaN);
    return { hwm: kb("VmHWM") / 1024, rss: kb("VmRSS") / 1024 };
  } catch {
    return { hwm: Number.NaN, rss: Number.NaN };
  }
}

let clockTicks;
/** Clock ticks per second of /proc/<pid>/stat's times (getconf CLK_TCK; 100 on every Linux we know). */
function ticksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * CPU time (user + system, ms) a process has used: /proc/<pid>/stat on Linux (10 ms ticks), else
 * `ps -o time=` ([dd-][hh:]mm:ss[.cc]; whole seconds on some systems, so use long batches there).
 */
export function cpuOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSecond();
  } catch {}
  try {
    const out = execFileSync("ps", ["-o", "time=", "-p", String(pid)], { encoding: "utf8" }).trim();
    const [days, clock] = out.includes("-") ? out.split("-") : ["0", out];
    const parts = clock.split(":").map(Number);
    const seconds = parts.reduce((acc, x) => acc * 60 + x, 0);
    return (Number(days) * 86400 + seconds) * 1000;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts a server and connects; `startMs` is spawn → tools/list answer received, `listedMs` spawn → the SDK
 * client done with it (it validates the list and compiles a validator per output schema, which costs the
 * client more for a server with more and richer schemas). `call` returns the client wall
 * time and the reply's size on the wire. `node` runs the server (default: SERVER_NODE); `listTimeoutMs`
 * bounds the wait for the tool list (a server under valgrind starts in a minute or more).
 */
export async function connect(bin, args, env = {}, node = SERVER_NODE, listTimeoutMs = 60_000) {
  const t0 = performance.now();
  const transport = new LineTransport(node, [bin, ...args], env);
  const client = new Client({ name: "mcpfs-bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(transport, { timeout: listTimeoutMs });
  const { tools } = await client.listTools(undefined, { timeout: listTimeoutMs });
  const listedMs = performance.now() - t0;
  const startMs = transport.toolsAt - t0;
  const names = new Set(tools.map((t) => t.name));
  return {
    pid: transport.pid,
    tools,
    startMs,
    listedMs,
    startCpuMs: transport.toolsCpuMs,
    has: (name) => names.has(name),
    mem: () => memOf(transport.pid),
    cpu: () => cpuOf(transport.pid),
    stderr: () => transport.stderr,
    async call(name, params, timeoutMs = 120_000) {
      const t = performance.now();
      const r = await client.callTool({ name, arguments: params }, undefined, {
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
      });
      const ms = performance.now() - t;
      const text = (r.content ?? []).map((c) => c.text ?? "").join("\n");
      return { ms, isError: r.isError === true, text, wire: transport.lastBytes ?? 0, result: r };
    },
    close: () => client.close().catch(() => {}),
  };
}
