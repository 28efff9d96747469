// HTTP load on loopback: N concurrent 2025-era sessions (SDK v1 Streamable HTTP client), each with its own
// root given as MCP roots, each making M mixed calls (read, list, grep when the surface has it). Every
// reply is checked against its own session's token; any other session's token or directory in a reply is
// a cross-session leak. Reports calls/s. Also used by test/slow/http-load.test.ts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SERVER_NODE } from "../lib/client.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `base` holds every session's directory: over HTTP, client roots narrow the command-line directories. */
function startServer(bin, base) {
  const proc = spawn(SERVER_NODE, [bin, "--http", "--no-auth", "--host", "127.0.0.1", "--port", "0", base], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 45_000);
    proc.stderr.on("data", (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${err}`)));
  });
  return { proc, url };
}

function text(result) {
  if (result.contents) return result.contents.map((c) => c.text ?? "").join("\n");
  return (result.content ?? []).map((c) => c.text ?? "").join("\n");
}

/**
 * Runs the load. Returns { calls, errors, leaks, ms, callsPerSec, problems } (problems: first few).
 * @param {{ sessions?: number, calls?: number, bin?: string }} opts
 */
export async function httpLoad(opts = {}) {
  const sessions = opts.sessions ?? 20;
  const perSession = opts.calls ?? 200;
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-load-")));
  const dirs = [];
  for (let i = 0; i < sessions; i++) {
    const dir = path.join(base, `session-${i}`);
    fs.mkdirSync(path.join(dir, "src"), { recursive: true });
    fs.writeFileSync(path.join(dir, "own.txt"), `token-${i}-owned\nsecond line\n`);
    fs.writeFileSync(path.join(dir, "src", "code.ts"), `export const token = "token-${i}-owned";\n`);
    dirs.push(dir);
  }
  const server = startServer(opts.bin ?? path.join(repo, "dist/cli/main.js"), base);
  const problems = [];
  let errors = 0;
  let leaks = 0;
  let calls = 0;
  try {
    const url = await server.url;
    const clients = await Promise.all(
      dirs.map(async (dir) => {
        const client = new Client({ name: "load", version: "1" }, { capabilities: { roots: {} } });
        client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: `file://${dir}` }] }));
        const transport = new StreamableHTTPClientTransport(new URL(url));
        await client.connect(transport);
        const names = new Set((await client.listTools()).tools.map((t) => t.name));
        return { client, transport, names };
      }),
    );
    const started = performance.now();
    await Promise.all(
      clients.map(async ({ client, names }, i) => {
        const dir = dirs[i];
        const own = `token-${i}-owned`;
        const ops = [
          () => client.callTool({ name: "read_text_file", arguments: { path: path.join(dir, "own.txt") } }),
          () => client.readResource({ uri: `file://${dir}` }),
          () => client.callTool({ name: "list_allowed_directories", arguments: {} }),
        ];
        if (names.has("list_directory"))
          ops.push(() => client.callTool({ name: "list_directory", arguments: { path: dir } }));
        if (names.has("grep"))
          ops.push(() => client.callTool({ name: "grep", arguments: { path: dir, pattern: "token-" } }));
        if (names.has("search_files"))
          ops.push(() =>
            client.callTool({ name: "search_files", arguments: { path: dir, pattern: "*.ts" } }),
          );
        for (let j = 0; j < perSession; j++) {
          const op = j % ops.length;
          calls++;
          try {
            const r = await ops[op]();
            const t = text(r);
            if (r.isError) {
              errors++;
              if (problems.length < 5) problems.push(`session ${i} op ${op}: ${t.slice(0, 200)}`);
            }
            // Each reply names only this session's places and tokens.
            for (let k = 0; k < sessions; k++) {
              if (k === i) continue;
              if (t.includes(`token-${k}-owned`) || t.includes(`${dirs[k]}/`) || t.endsWith(dirs[k])) {
                leaks++;
                if (problems.length < 5) problems.push(`session ${i} saw session ${k}: ${t.slice(0, 200)}`);
              }
            }
            if (op === 0 && !t.includes(own)) {
              errors++;
              if (problems.length < 5)
                problems.push(`session ${i} read the wrong content: ${t.slice(0, 200)}`);
            }
          } catch (err) {
            errors++;
            if (problems.length < 5) problems.push(`session ${i} op ${op}: ${err?.message ?? err}`);
          }
        }
      }),
    );
    const ms = performance.now() - started;
    await Promise.all(
      clients.map(async ({ client, transport }) => {
        await transport.terminateSession().catch(() => {});
        await client.close();
      }),
    );
    return { calls, errors, leaks, ms, callsPerSec: (calls / ms) * 1000, problems };
  } finally {
    server.proc.kill("SIGTERM");
    fs.rmSync(base, { recursive: true, force: true });
  }
}

export default {
  id: "http_load",
  title: "Streamable HTTP: 20 sessions × 200 mixed calls on loopback",
  async run(ctx) {
    const r = await httpLoad({ sessions: 20, calls: 200, bin: ctx?.mcpfs });
    return [
      {
        label: "20 sessions × 200 calls (read/list/grep), HTTP",
        mcpfs: r.ms,
        official: "n/a (stdio only)",
        target: "0 errors, 0 cross-session leaks",
        met: r.errors === 0 && r.leaks === 0,
        note: `calls/s: ${r.callsPerSec.toFixed(0)}; calls ${r.calls}, errors ${r.errors}, leaks ${r.leaks}`,
      },
    ];
  },
};
