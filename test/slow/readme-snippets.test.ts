/**
 * The README's client snippets, loaded into the clients' own CLIs: every JSON block of "Client
 * configuration" and every `claude mcp add` / `gemini mcp add` line goes into Claude Code and Gemini CLI
 * (pinned, installed from the npm registry into a cache under the temp dir, their config dirs in a temp
 * home), and `claude mcp list` / `gemini mcp list` must list each server as connected. Both check servers
 * without an API key and without the network. A snippet's `npx -y mcpfs` runs the package under test, its
 * example paths are temp folders, its HTTP ports are those of servers started here.
 *
 * The Codex and Inspector snippets have no CLI here: their mcpfs command lines are started through the
 * SDK client instead, and Codex's server names checked against what Codex and Claude Code accept. Not run:
 * Docker.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type HttpServerProcess, startHttpServer } from "../helpers/http.js";
import { MCPFS_BIN, ROOT, SERVER_NODE, serverPool } from "../helpers/server.js";

const CLIS = {
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332", bin: "cli-wrapper.cjs" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0", bin: "bundle/gemini.js" },
} as const;
type Cli = keyof typeof CLIS;
const TOKEN = "readme-snippets-token-0123456789abcdef";
const SLOW = 600_000;
const start = serverPool();

const area = tempArea("mcpfs-readme-");
/** What the snippets call /Users/me, C:\Users\me and ~: projects/app, projects/lib, docs. */
const me = area.tree("me", { "projects/app/a.txt": "a\n", "projects/lib/l.txt": "l\n", "docs/d.txt": "d\n" });
const servers: HttpServerProcess[] = [];
/** The README's HTTP ports (3333 filesystem, 3334 workspace) mapped to the servers started here. */
const ports = new Map<string, string>();
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  area.cleanup();
});

/** The CLI installed once per version into the temp dir (Claude Code's is ~390 MB: no devDependency). */
function install(cli: Cli): string[] {
  const { pkg, version, bin } = CLIS[cli];
  const prefix = path.join(os.tmpdir(), "mcpfs-client-clis", `${cli}-${version}`);
  if (!fs.existsSync(path.join(prefix, ".done"))) {
    const tmp = `${prefix}.${process.pid}`;
    const r = spawnSync(
      "npm",
      ["install", "--prefix", tmp, "--no-audit", "--no-fund", "--ignore-scripts", `${pkg}@${version}`],
      { encoding: "utf8", shell: process.platform === "win32", timeout: SLOW },
    );
    if (r.status !== 0) throw new Error(`npm install ${pkg}@${version} failed:\n${r.stderr}`);
    fs.writeFileSync(path.join(tmp, ".done"), "");
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.renameSync(tmp, prefix);
  }
  return [SERVER_NODE, path.join(prefix, "node_modules", pkg, bin)];
}

interface Case {
  home: string;
  cwd: string;
  run(cli: Cli, args: string[]): { status: number | null; out: string };
}

/** A fresh home (the CLIs' config) and project folder, with the CLI commands run in it. */
function freshCase(name: string): Case {
  const home = area.tree(`homes/${name}`);
  const cwd = area.tree(`homes/${name}/app`, { "x.txt": "x\n" });
  const env = {
    ...process.env,
    HOME: home,
    USERPROFILE: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    MCPFS_AUTH_TOKEN: TOKEN,
  };
  return {
    home,
    cwd,
    run(cli, args) {
      const [node, bin] = install(cli);
      const r = spawnSync(node!, [bin!, ...args], { cwd, env, encoding: "utf8", timeout: 180_000 });
      return { status: r.status, out: `${r.stdout}${r.stderr}` };
    },
  };
}

/** The README's "Client configuration" section. */
function section(): string {
  const text = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = text.indexOf("## Client configuration");
  return text.slice(start, text.indexOf("\n## ", start + 1));
}

function blocks(lang: string): string[] {
  return [...section().matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);
}

/** An example path of a snippet made one of this test's folders. */
function localPath(arg: string, cwd: string): string {
  return arg
    .replace("$" + "{workspaceFolder}", path.join(me, "projects", "app"))
    .replace(/^C:\\Users\\me(\\|$)/, `${me}$1`)
    .replace(/^\/Users\/me(\/|$)/, `${me}$1`)
    .replace(/^\/path\/to\/(dir|app)$/, cwd)
    .replace(/\\/g, process.platform === "win32" ? "\\" : "/");
}

/** A snippet's command line made runnable here: `[cmd /c] npx -y mcpfs ARGS` -> the package under test. */
function localCommand(argv: string[], cwd: string): string[] {
  const rest = argv[0] === "cmd" && argv[1] === "/c" ? argv.slice(2) : argv;
  if (rest[0] !== "npx" || rest[1] !== "-y" || rest[2] !== "mcpfs")
    throw new Error(`not an mcpfs start: ${argv.join(" ")}`);
  return [SERVER_NODE, MCPFS_BIN, ...rest.slice(3).map((a) => localPath(a, cwd))];
}

function localUrl(url: string): string {
  return url.replace(/:(\d+)\//, (m, p: string) => (ports.has(p) ? `:${ports.get(p)}/` : m));
}

type Entry = Record<string, unknown> & { command?: string; args?: string[]; url?: string };

/** A JSON block's servers, made runnable here (VS Code's `servers` key read as `mcpServers`). */
function entriesOf(block: string, cwd: string): [string, Entry][] {
  const json = JSON.parse(block) as { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry> };
  return Object.entries(json.mcpServers ?? json.servers ?? {}).map(([name, e]) => {
    if (e.url) return [name, { ...e, url: localUrl(e.url) }];
    const [command, ...args] = localCommand([e.command!, ...(e.args ?? [])], cwd);
    return [name, { ...e, command, args }];
  });
}

/** A README shell line's words, as a shell would make them ("$PWD", $VAR, ~/). */
function words(line: string, cwd: string): string[] {
  const env: Record<string, string> = { PWD: cwd, MCPFS_AUTH_TOKEN: TOKEN };
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|(\S+)/g)) {
    const w = (m[1] ?? m[2]!).replace(/\$\{?(\w+)\}?/g, (_, v: string) => env[v] ?? "");
    out.push(m[2]?.startsWith("~") ? w.replace(/^~/, me) : w);
  }
  return out;
}

/** A `<cli> mcp add ...` line's arguments after `add`, made runnable here: the server command after the name, the URL's port. */
function localAdd(line: string, cwd: string): { args: string[]; name: string } {
  const w = words(line, cwd).slice(3);
  const npx = w.indexOf("npx");
  const args =
    npx === -1
      ? w.map((a) => (a.startsWith("http://") ? localUrl(a) : a))
      : [...w.slice(0, npx), ...localCommand(w.slice(npx), cwd)];
  // The name is the word before the server: its command (after `--`, if any) or its URL.
  const server = npx === -1 ? w.findIndex((a) => a.startsWith("http://")) : npx;
  const name = w
    .slice(0, server)
    .filter((a) => a !== "--")
    .at(-1)!;
  return { args, name };
}

function addLines(cli: Cli): string[] {
  return blocks("sh")
    .flatMap((b) => b.split("\n"))
    .filter((l) => l.startsWith(`${cli} mcp add `));
}

/** The servers `mcp list` shows as connected (Claude: `name: … - ✔ Connected`; Gemini: `✓ name: … - Connected`). */
function connected(out: string): string[] {
  return [...out.matchAll(/^(?:✓ )?([\w-]+): .* - (?:✔ )?Connected$/gm)].map((m) => m[1]!);
}

beforeAll(async () => {
  for (const [port, args] of [
    ["3333", [path.join(me, "projects")]],
    ["3334", ["--project-dir", path.join(me, "projects", "app"), "--console-only"]],
  ] as const) {
    const s = await startHttpServer([...args], { env: { MCPFS_AUTH_TOKEN: TOKEN } });
    servers.push(s);
    ports.set(port, new URL(s.url).port);
  }
  install("claude");
  install("gemini");
}, SLOW);

describe("README client snippets", () => {
  it("has the blocks and lines this test loads", () => {
    expect(blocks("json").length).toBeGreaterThanOrEqual(6);
    expect(addLines("claude").length).toBeGreaterThanOrEqual(3);
    expect(addLines("gemini").length).toBeGreaterThanOrEqual(2);
  });

  it(
    "every JSON block: Claude Code loads it from .mcp.json and connects each server added with add-json",
    () => {
      blocks("json").forEach((block, i) => {
        const c = freshCase(`claude-json-${i}`);
        const entries = entriesOf(block, c.cwd);
        fs.writeFileSync(
          path.join(c.cwd, ".mcp.json"),
          JSON.stringify({ mcpServers: Object.fromEntries(entries) }),
        );
        const project = c.run("claude", ["mcp", "list"]);
        expect(project.out, block).not.toMatch(/reserved|\[Warning\]|\[Error\]/);
        for (const [name] of entries) expect(project.out).toMatch(new RegExp(`^${name}: `, "m"));
        fs.rmSync(path.join(c.cwd, ".mcp.json"));
        for (const [name, e] of entries) {
          const add = c.run("claude", ["mcp", "add-json", "--scope", "user", name, JSON.stringify(e)]);
          expect(add.status, add.out).toBe(0);
        }
        const list = c.run("claude", ["mcp", "list"]);
        expect(connected(list.out).sort(), list.out).toEqual(entries.map(([n]) => n).sort());
      });
    },
    SLOW,
  );

  it(
    "every JSON block: Gemini CLI loads it from .gemini/settings.json and connects each server",
    () => {
      blocks("json").forEach((block, i) => {
        const c = freshCase(`gemini-json-${i}`);
        const entries = entriesOf(block, c.cwd);
        fs.mkdirSync(path.join(c.cwd, ".gemini"));
        fs.writeFileSync(
          path.join(c.cwd, ".gemini", "settings.json"),
          JSON.stringify({ mcpServers: Object.fromEntries(entries) }),
        );
        const list = c.run("gemini", ["mcp", "list"]);
        expect(connected(list.out).sort(), `${block}\n${list.out}`).toEqual(entries.map(([n]) => n).sort());
      });
    },
    SLOW,
  );

  it.each(["claude", "gemini"] as const)(
    "every `%s mcp add` line is accepted and its server connects",
    (cli) => {
      // The lines that name a path (~/projects) or the current folder ("$PWD") run in a project folder.
      const c = freshCase(`${cli}-lines`);
      const names: string[] = [];
      for (const line of addLines(cli)) {
        const { args, name } = localAdd(line, c.cwd);
        const add = c.run(cli, ["mcp", "add", ...args]);
        expect(add.status, `${line}\n${add.out}`).toBe(0);
        expect(add.out).not.toMatch(/reserved/);
        names.push(name);
      }
      const list = c.run(cli, ["mcp", "list"]);
      expect(connected(list.out).sort(), list.out).toEqual(names.sort());
    },
    SLOW,
  );

  it("the Codex and Inspector snippets start mcpfs with arguments it accepts", async () => {
    const cwd = area.tree("other-clients");
    const toml = blocks("toml").map((b) => parseToml(b) as { mcp_servers: Record<string, Entry> });
    const fromToml = toml.flatMap((t) => Object.entries(t.mcp_servers));
    expect(fromToml.length).toBeGreaterThanOrEqual(1);
    const lines = blocks("sh")
      .flatMap((b) => b.split("\n"))
      .filter((l) => l.startsWith("codex mcp add ") || l.startsWith("npx @modelcontextprotocol/inspector "))
      .map((l) => words(l.replace(/\s+#.*$/, ""), cwd));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    const commands = [
      ...fromToml.map(([name, e]) => {
        expect(name).toMatch(/^[a-zA-Z0-9-]+$/);
        return [e.command!, ...(e.args ?? [])];
      }),
      ...lines.map((w) => w.slice(w.indexOf("npx", 1))),
    ];
    for (const argv of commands) {
      const [, , ...args] = localCommand(argv, cwd);
      const conn = await start(args);
      expect((await conn.client.listTools()).tools.length, argv.join(" ")).toBeGreaterThan(5);
    }
  });
});
