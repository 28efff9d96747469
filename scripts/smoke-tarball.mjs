#!/usr/bin/env node
// Black-box check of the npm package as a user gets it: `node scripts/smoke-tarball.mjs [mcpfs-X.tgz]`
// (default: `npm pack` it now). It installs the tarball into an empty prefix with --omit=dev (no engine
// warning, at most 5 packages and 35 MiB), then starts the server through `npx --yes <tarball>` and through
// the global install's `mcpfs` command, on both surfaces, over stdio and Streamable HTTP, using the MCP SDK
// client from this repository's node_modules, on a real project (git, .gitignore files, binaries, a symlink,
// CRLF, node_modules). Only loopback is used; npm needs its registry for ripgrep.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { unbundledImports } from "./bundle-imports.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const win = process.platform === "win32";
const NPM = win ? "npm.cmd" : "npm";
const NPX = win ? "npx.cmd" : "npx";
const MAX_PACKAGES = 5;
// The code tools' grammars (WebAssembly) are most of it; issue 24 caps the install at 35 MiB.
const MAX_BYTES = 35 * 1024 * 1024;

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-smoke-")));
let failures = 0;

function check(ok, what) {
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (!ok) failures++;
}

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    shell: win,
    ...opts,
  });
}

function tarball() {
  if (process.argv[2]) return path.resolve(process.argv[2]);
  const name = run(NPM, ["pack", "--silent", "--pack-destination", work], { cwd: repo })
    .trim()
    .split("\n")
    .pop();
  return path.join(work, name);
}

function dirBytes(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += dirBytes(p);
    else if (e.isFile()) n += fs.statSync(p).size;
  }
  return n;
}

/**
 * The environment of a machine with only Node: none of this repository's tools on PATH, and an npm cache
 * of its own (so npx installs the tarball and ripgrep from scratch, as on a new machine).
 */
function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  env.PATH = (env.PATH ?? "")
    .split(path.delimiter)
    .filter((p) => !p.includes(`${path.sep}node_modules${path.sep}`))
    .join(path.delimiter);
  for (const k of Object.keys(env)) if (k.startsWith("npm_")) delete env[k];
  env.npm_config_cache = path.join(work, "npm-cache");
  return env;
}

/**
 * A real project, as users point the server at: root and nested .gitignore files (ignored files hold the
 * search word too), a git repository with a commit, binary files, a symlink, CRLF text, a node_modules.
 */
function realProject(dir) {
  const files = {
    ".gitignore": "node_modules/\n*.log\nbuild/\n",
    "src/main.ts": "export const smoke = 'hello smoke';\n",
    "src/.gitignore": "generated.ts\n",
    "src/generated.ts": "export const smoke = 'ignored smoke';\n",
    "docs/crlf.md": "# crlf\r\nhello smoke in crlf\r\n",
    "build/out.js": "ignored smoke\n",
    "app.log": "ignored smoke\n",
    "node_modules/dep/index.js": "module.exports = 'ignored smoke';\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.writeFileSync(
    path.join(dir, "logo.png"),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
  );
  fs.writeFileSync(
    path.join(dir, "data.bin"),
    Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 115, 109, 111, 107, 101]),
  );
  try {
    fs.symlinkSync(path.join("src", "main.ts"), path.join(dir, "main-link.ts"));
  } catch {
    // Windows without the symlink privilege: the rest of the project still counts.
  }
  const git = (...args) => run("git", args, { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=smoke", "-c", "user.email=smoke@example.invalid", "commit", "-q", "-m", "init");
  return dir;
}

function fixtures() {
  return {
    root: realProject(path.join(work, "root")),
    project: realProject(path.join(work, "project")),
  };
}

const SURFACES = (f) => [
  { name: "filesystem", args: [f.root], root: f.root },
  { name: "workspace", args: ["--project-dir", f.project, "--console-only"], root: f.project },
];

const textOf = (r) => (r.content ?? []).map((c) => c.text ?? "").join("\n");

/** The calls each surface answers on the real project: [tool, arguments, what the reply must show]. */
function callsOf(surface) {
  const p = (rel) => path.join(surface.root, rel);
  const found =
    (...names) =>
    (t) =>
      names.every((n) => t.includes(n)) && !/ignored smoke|generated\.ts/.test(t);
  if (surface.name === "filesystem")
    return [
      ["read_text_file", { path: p("src/main.ts") }, (t) => t.includes("hello smoke")],
      ["read_text_file", { path: p("docs/crlf.md") }, (t) => t.includes("hello smoke in crlf")],
      ["read_text_file", { path: p("main-link.ts") }, (t) => t.includes("hello smoke")],
      // ripgrep is the package's one external dependency: it resolves from the installed package.
      ["grep", { path: surface.root, pattern: "smoke" }, found("main.ts", "crlf.md")],
      ["search_files", { path: surface.root, pattern: "**/*.ts" }, found("main.ts")],
      [
        "directory_tree",
        { path: surface.root },
        (t) => found("main.ts", "logo.png")(t) && !t.includes("node_modules"),
      ],
      ["list_directory", { path: surface.root }, (t) => t.includes("logo.png") && t.includes("node_modules")],
    ];
  return [
    ["read_file", { file_path: "src/main.ts" }, (t) => t.includes("hello smoke")],
    ["read_file", { file_path: "docs/crlf.md" }, (t) => t.includes("hello smoke in crlf")],
    ["list_directory", {}, (t) => found("main.ts", "logo.png")(t) && !t.includes("node_modules")],
    ["search_files", { pattern: "smoke" }, found("main.ts", "crlf.md")],
    ["search_files", { glob: "*.ts" }, found("main.ts")],
  ];
}

async function exercise(client, surface, label) {
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const calls = callsOf(surface);
  const missing = calls.map(([tool]) => tool).filter((t) => !tools.includes(t));
  check(
    missing.length === 0,
    `${label}: tools/list (${tools.length} tools) lacks none of ${missing.join(", ") || "the tools called"}`,
  );
  for (const [tool, args, shows] of calls) {
    const r = await client.callTool({ name: tool, arguments: args });
    const text = textOf(r);
    check(
      !r.isError && shows(text),
      `${label}: ${tool} ${JSON.stringify(args)}${r.isError || !shows(text) ? `\n${text.slice(0, 600)}` : ""}`,
    );
  }
}

async function overStdio(command, args, surface, label) {
  const transport = new StdioClientTransport({
    command,
    args: [...args, ...surface.args],
    cwd: work,
    env: cleanEnv({ MCPFS_GREP_ENGINE: "rg" }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => {
    stderr += d;
  });
  const client = new Client({ name: "mcpfs-smoke", version: "1.0.0" });
  try {
    await client.connect(transport);
    await exercise(client, surface, label);
    if (surface.name === "filesystem")
      check(
        stderr.includes("Secure MCP Filesystem Server running on stdio"),
        `${label}: official startup line`,
      );
  } catch (err) {
    check(false, `${label}: ${err.message}\n${stderr}`);
  } finally {
    await client.close().catch(() => {});
  }
}

async function overHttp(command, args, surface, label) {
  // HTTP authenticates by default: the client sends the token the server was given.
  const token = randomBytes(24).toString("hex");
  const child = spawn(command, [...args, "--http", "--port", "0", "--auth-token", token, ...surface.args], {
    cwd: work,
    env: cleanEnv({ MCPFS_GREP_ENGINE: "rg" }),
    stdio: ["ignore", "ignore", "pipe"],
    detached: !win, // npx runs the server as its child: stop the whole group.
    shell: win,
  });
  let stderr = "";
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL on stderr:\n${stderr}`)), 120_000);
      child.stderr.on("data", (d) => {
        stderr += d;
        const m = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${stderr}`)));
    });
    const client = new Client({ name: "mcpfs-smoke", version: "1.0.0" });
    const headers = { Authorization: `Bearer ${token}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    await exercise(client, surface, label);
    await client.close();
  } catch (err) {
    check(false, `${label}: ${err.message}`);
  } finally {
    try {
      if (win) child.kill();
      else process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

async function main() {
  // npx takes `./file.tgz` as a package but an absolute path as a command: run it from the tarball's folder.
  const tgz = path.join(work, path.basename(tarball()));
  if (!fs.existsSync(tgz)) fs.copyFileSync(path.resolve(process.argv[2]), tgz);
  const npxSpec = `.${path.sep}${path.basename(tgz)}`;
  process.stdout.write(`tarball ${tgz} (${(fs.statSync(tgz).size / 1024).toFixed(0)} KiB)\n`);
  const listing = run("tar", ["-tzf", tgz]).trim().split("\n").sort();
  check(
    listing.every((f) =>
      /^package\/(dist\/bundle\/|README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/.test(f),
    ),
    `tarball holds only what runs: ${listing.join(", ")}`,
  );
  const needed = ["dist/bundle/mcpfs.js", "README.md", "LICENSE", "CHANGELOG.md"].map((f) => `package/${f}`);
  check(
    needed.every((f) => listing.includes(f)),
    "tarball holds the executable, README, LICENSE and CHANGELOG",
  );

  const prefix = path.join(work, "prefix");
  // npm prints its warnings on stderr: keep both streams.
  const install = spawnSync(
    NPM,
    ["install", "--global", "--omit=dev", "--no-fund", "--no-audit", "--prefix", prefix, tgz],
    { cwd: work, env: cleanEnv(), encoding: "utf8", shell: win },
  );
  const out = `${install.stdout}${install.stderr}`;
  check(
    install.status === 0,
    `global install of the tarball succeeds${install.status === 0 ? "" : `:\n${out}`}`,
  );
  const lib = win ? path.join(prefix, "node_modules") : path.join(prefix, "lib", "node_modules");
  const count = (dir) =>
    fs.readdirSync(dir).flatMap((n) => (n.startsWith("@") ? fs.readdirSync(path.join(dir, n)) : [n])).length;
  const nested = path.join(lib, "mcpfs", "node_modules");
  const packages = count(lib) + (fs.existsSync(nested) ? count(nested) : 0);
  const bytes = dirBytes(prefix);
  check(packages <= MAX_PACKAGES, `global install: ${packages} packages (at most ${MAX_PACKAGES})`);
  check(
    bytes <= MAX_BYTES,
    `global install: ${(bytes / 1048576).toFixed(1)} MB (at most ${MAX_BYTES / 1048576} MB)`,
  );
  check(!/EBADENGINE|Unsupported engine/.test(out), "global install prints no engine warning");
  const installed = path.join(lib, "mcpfs");
  const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8"));
  const shipped = fs.readdirSync(path.join(installed, "dist", "bundle"));
  const unbundled = shipped
    .filter((f) => /\.c?js$/.test(f))
    .flatMap((f) =>
      unbundledImports(
        fs.readFileSync(path.join(installed, "dist", "bundle", f), "utf8"),
        dependencies,
        shipped,
      ),
    );
  check(
    unbundled.length === 0,
    `the installed bundle loads no package it lacks${unbundled.length ? `: ${unbundled}` : ""}`,
  );

  const f = fixtures();
  const bin = win ? path.join(prefix, "mcpfs.cmd") : path.join(prefix, "bin", "mcpfs");
  for (const surface of SURFACES(f)) {
    await overStdio(NPX, ["--yes", npxSpec], surface, `npx ${surface.name} stdio`);
    await overHttp(NPX, ["--yes", npxSpec], surface, `npx ${surface.name} http`);
    await overStdio(bin, [], surface, `global ${surface.name} stdio`);
  }
}

try {
  await main();
} catch (err) {
  check(false, err.stack ?? String(err));
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
process.stdout.write(failures === 0 ? "smoke: all checks passed\n" : `smoke: ${failures} check(s) failed\n`);
process.exit(failures === 0 ? 0 : 1);
