/**
 * Start-up as a user meets it: the version flags, flags that only mean something with another one, tool
 * names that do not exist, a busy port, where a failed start leaves its log, a root the server cannot read,
 * and the git tool given a whole command line.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { commit, initRepo } from "../helpers/git-repo.js";
import { MCPFS_BIN, runCli, SERVER_NODE, serverPool } from "../helpers/server.js";

const area = tempArea("mcpfs-cli-start-");
const dir = area.tree("dir", { "a.txt": "A\n" });
const pkgVersion = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")).version;
afterAll(() => area.cleanup());
const start = serverPool();

describe("version flags", () => {
  it.each([["-v"], ["-V"], ["--version"]])(
    "%s prints the version and exits 0, serving nothing",
    async (flag) => {
      const r = await runCli([flag], { input: "" });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`mcpfs ${pkgVersion}\n`);
      expect(r.stderr).toBe("");
    },
  );
});

describe("flags that need another flag, or a known name", () => {
  it.each([
    [["--port", "4000"], "--port"],
    [["--host", "0.0.0.0"], "--host"],
  ])("%j without --http is a start-up error, not a stdio server", async (flags, flag) => {
    const r = await runCli([...flags, dir], { input: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${flag} needs --http`);
    expect(r.stderr).not.toContain("Secure MCP Filesystem Server running");
    expect(r.stdout).toBe("");
  });

  it("an unknown name in --disable-tools is an error that names the closest tool", async () => {
    const r = await runCli(["--disable-tools", "read_file,nosuch_tool,grpe", dir], { input: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--disable-tools: unknown tool 'nosuch_tool'");
    expect(r.stderr).toContain("unknown tool 'grpe' (did you mean grep?)");
    expect(r.stderr).not.toContain("'read_file'");
    expect(r.stderr).not.toContain("Secure MCP Filesystem Server running");
    // The workspace surface checks its own names.
    const ws = await runCli(["--project-dir", dir, "--console-only", "--disable-tools", "read_fle"], {
      input: "",
    });
    expect(ws.code).toBe(2);
    expect(ws.stderr).toContain("unknown tool 'read_fle' (did you mean read_file?)");
    // Known names still start (and hide the tool).
    const ok = await start([dir, "--disable-tools", "read_file, grep"]);
    const names = (await ok.client.listTools()).tools.map((t: { name: string }) => t.name);
    expect(names).not.toContain("grep");
    expect(names).toContain("read_text_file");
  });

  it("a busy port says which flag to change", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await runCli(["--http", "--port", String(port), dir], {
        env: { MCPFS_AUTH_TOKEN: "t".repeat(32) },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: port ${port} on 127.0.0.1 is already in use: pass another --port`);
      expect(r.stderr).not.toContain("listen EADDRINUSE");
    } finally {
      blocker.close();
    }
  });
});

describe("a failed start leaves no log outside the project or the state directory", () => {
  const stateDir = area.tree("state");
  it.each([
    [
      "a missing project",
      ["--project-dir", path.join(area.base, "nonexistent")],
      "Project directory does not exist",
    ],
    ["no project at all", ["--surface", "workspace"], "--project-dir is required"],
  ])("%s: nothing in the working directory, the error in <state>/logs", async (_what, args, message) => {
    const cwd = area.tree(`cwd-${args.length}-${_what.length}`);
    const r = await runCli(args, { cwd, input: "", env: { MCPFS_STATE_DIR: stateDir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
    expect(fs.readdirSync(cwd)).toEqual([]);
    const log = path.join(stateDir, "logs", "mcp_workspace_startup_error.log");
    expect(fs.readFileSync(log, "utf8")).toContain(message);
  });

  it("an error with a good project leaves the project alone too", async () => {
    const project = area.tree("project-err", { "x.txt": "x\n" });
    const cwd = area.tree("cwd-project-err");
    const r = await runCli(["--project-dir", project, "--file-size-limit", "0"], {
      cwd,
      input: "",
      env: { MCPFS_STATE_DIR: stateDir },
    });
    expect(r.code).toBe(1);
    expect(fs.readdirSync(cwd)).toEqual([]);
    expect(fs.readdirSync(project)).toEqual(["x.txt"]);
    const log = path.join(stateDir, "logs", "mcp_workspace_startup_error.log");
    expect(fs.readFileSync(log, "utf8")).toContain("--file-size-limit must be a positive integer: 0");
  });
});

describe.runIf(process.platform !== "win32")("a root the server cannot read", () => {
  it("is a start-up error that names it (both surfaces), not a hint about --read-only-dir", () => {
    // Run as a user who cannot read `locked`: as root, the unprivileged `nobody` (root reads anywhere).
    const asRoot = process.getuid?.() === 0;
    const base = area.tree("unreadable");
    const locked = area.tree("unreadable/locked", { "r.txt": "R\n" });
    const open = area.tree("unreadable/open");
    fs.chmodSync(area.base, 0o755);
    fs.chmodSync(base, 0o755);
    fs.chmodSync(open, 0o777);
    fs.chmodSync(locked, 0o000);
    const run = (args: string[]) =>
      spawnSync(SERVER_NODE, [MCPFS_BIN, ...args], {
        input: "",
        encoding: "utf8",
        timeout: 30_000,
        cwd: open,
        env: { ...process.env, MCPFS_STATE_DIR: path.join(open, "state") },
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
    try {
      for (const args of [
        [open, locked],
        ["--project-dir", locked, "--console-only"],
      ]) {
        const r = run(args);
        expect(r.status, r.stderr).toBe(1);
        expect(r.stderr).toContain(`Error: Cannot read directory ${locked}: permission denied`);
        expect(r.stderr).not.toContain("--read-only-dir");
        expect(r.stderr).not.toContain("Secure MCP Filesystem Server running");
      }
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });
});

describe("git with flags inside command", () => {
  it("says to pass them in args, with the corrected call", async () => {
    const repo = initRepo(area.tree("repo"));
    commit(repo, { "a.txt": "a\n" }, "first");
    const conn = await start(["--project-dir", repo, "--console-only"]);
    const r = await conn.call("git", { command: "log -3 --oneline" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Unknown git command: 'log -3 --oneline'");
    expect(r.text).toContain('{"command": "log", "args": ["-3", "--oneline"]}');
    const paths = await conn.call("git", { command: "log --oneline -- src" });
    expect(paths.text).toContain('{"command": "log", "args": ["--oneline"], "pathspec": ["src"]}');
    const prefixed = await conn.call("git", { command: "git status" });
    expect(prefixed.text).toContain('{"command": "status", "args": []}');
    // The corrected call works.
    const fixed = await conn.call("git", { command: "log", args: ["-3", "--oneline"] });
    expect(fixed.isError).toBe(false);
    expect(fixed.text).toContain("first");
  });
});
