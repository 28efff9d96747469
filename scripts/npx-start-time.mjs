#!/usr/bin/env node
// Time from `npx --yes ./<tarball> DIR` to the tools/list answer, on a warm npm cache (one unmeasured run
// first), for mcpfs and the official server packed the same way:
//   node scripts/npx-start-time.mjs mcpfs-0.1.0.tgz modelcontextprotocol-server-filesystem-2026.8.31.tgz
// (`npm pack @modelcontextprotocol/server-filesystem@2026.8.31` gives the second). Raw JSON lines on stdio,
// so no client library's own start-up is counted. Prints the median and the range of 7 runs per tarball.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RUNS = 7;
const win = process.platform === "win32";
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-npx-time-")));
fs.writeFileSync(path.join(dir, "a.txt"), "a\n");

const lines = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((m) => JSON.stringify(m))
  .join("\n");

function once(tgz) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(win ? "npx.cmd" : "npx", ["--yes", `./${path.basename(tgz)}`, dir], {
      cwd: path.dirname(tgz),
      stdio: ["pipe", "pipe", "ignore"],
      shell: win,
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes('"id":2')) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        child.stdin.end();
        child.kill();
        resolve(ms);
      }
    });
    child.on("error", reject);
    child.stdin.write(`${lines}\n`);
    setTimeout(() => reject(new Error(`no tools/list answer from ${tgz}`)), 120_000).unref();
  });
}

for (const arg of process.argv.slice(2)) {
  const tgz = path.resolve(arg);
  await once(tgz); // warm the npm cache and npx's install
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await once(tgz));
  times.sort((a, b) => a - b);
  const f = (ms) => `${ms.toFixed(0)} ms`;
  process.stdout.write(
    `${path.basename(tgz)}: median ${f(times[RUNS >> 1])} (${f(times[0])}–${f(times[RUNS - 1])})\n`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
