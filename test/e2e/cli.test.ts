/**
 * The command line, both styles, run as a real process: official style (positional directories) and
 * workspace style (--project-dir, mcp-workspace's flags), the common flags, and stdout carrying nothing but
 * MCP JSON while serving.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs } from "../../src/cli/args.js";
import { plainDirectories } from "../../src/cli/plain-args.js";
import { Workspace } from "../../src/core/workspace.js";
import { filesystemTools } from "../../src/surfaces/filesystem/index.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, MCPFS_BIN, runCli, SERVER_NODE, serverPool } from "../helpers/server.js";
import { wordedRejection } from "../helpers/worded.js";

const area = tempArea("mcpfs-cli-");
const dir = area.tree("dir", { "a.txt": "A\n" });
const other = area.tree("other", { "o.txt": "O\n" });
const file = path.join(area.tree("files", { "plain.txt": "not a dir" }), "plain.txt");
const missing = path.join(area.base, "missing");
const home = area.tree("home", { "proj/h.txt": "H\n" });
const pkgVersion = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")).version;
afterAll(() => area.cleanup());

const start = serverPool();

async function allowedText(conn: Connection): Promise<string> {
  return (await conn.call("list_allowed_directories")).text;
}

function freshCwd(name: string): string {
  return area.tree(`cwd-${name}`);
}

/** A state directory of its own for one run (the workspace's startup-error log goes there). */
function stateOf(cwd: string): { MCPFS_STATE_DIR: string } {
  return { MCPFS_STATE_DIR: path.join(cwd, "..", `${path.basename(cwd)}-state`) };
}

function startupLog(cwd: string): string {
  const log = path.join(stateOf(cwd).MCPFS_STATE_DIR, "logs", "mcp_workspace_startup_error.log");
  expect(fs.readdirSync(cwd)).toEqual([]);
  return fs.readFileSync(log, "utf8");
}

describe("official style: mcpfs DIR [DIR...]", () => {
  it("takes plain directories without commander, with the config commander would make", () => {
    for (const argv of [[], ["/a"], ["/a", "b", "-", "~/c", "x=y", ""]]) {
      const full = parseArgs(argv, "1.0.0");
      expect(full.kind).toBe("config");
      expect(plainDirectories(argv)).toEqual(full.kind === "config" ? full.config : undefined);
    }
    for (const argv of [["--read-only", "/a"], ["/a", "-x"], ["--", "/a"], ["--help"]])
      expect(plainDirectories(argv)).toBeUndefined();
  });

  it("expands ~ and ~/… with the home directory", async () => {
    const conn = await start(["~/proj", "~"], { env: { HOME: home } });
    expect(await allowedText(conn)).toBe(`Allowed directories:\n${path.join(home, "proj")}\n${home}`);
    expect((await conn.call("read_text_file", { path: "h.txt" })).text).toBe("H\n");
  });

  it("keeps a symlinked directory in its given and its real form", async () => {
    const link = path.join(area.base, "dir-link");
    fs.symlinkSync(dir, link);
    const conn = await start([link]);
    expect(await allowedText(conn)).toBe(`Allowed directories:\n${link}\n${dir}`);
    expect((await conn.call("read_text_file", { path: path.join(link, "a.txt") })).text).toBe("A\n");
    expect((await conn.call("read_text_file", { path: path.join(dir, "a.txt") })).text).toBe("A\n");
  });

  it("skips a non-directory and an inaccessible directory with the official warnings", async () => {
    const conn = await start([file, missing, dir]);
    expect(conn.stderr()).toContain(`Warning: ${file} is not a directory, skipping`);
    expect(conn.stderr()).toContain(`Warning: Cannot access directory ${missing}, skipping`);
    expect(await allowedText(conn)).toBe(`Allowed directories:\n${dir}`);
  });

  it("exits 1 when none of the given directories is usable", async () => {
    const r = await runCli([file, missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: None of the specified directories are accessible");
    expect(r.stderr).toContain(`Warning: ${file} is not a directory, skipping`);
    expect(r.stdout).toBe("");
  });

  it("with no directories prints its usage on stderr and waits for roots", async () => {
    const conn = await start([]);
    expect(conn.stderr()).toContain("Usage: mcpfs [allowed-directory] [additional-directories...]");
    expect(conn.stderr()).toContain(
      "At least one directory must be provided by EITHER method for the server to operate.",
    );
    // Still serving: the call is answered (with the clear error).
    const r = await conn.call("list_allowed_directories");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("No allowed directories available");
  });

  it("prints the official server's startup lines on stderr (filesystem surface on stdio only)", async () => {
    const withDir = await start([dir]);
    await allowedText(withDir);
    expect(withDir.stderr()).toContain("Secure MCP Filesystem Server running on stdio\n");
    expect(withDir.stderr()).not.toContain("Started without allowed directories");
    const none = await start([]);
    await none.call("list_allowed_directories");
    expect(none.stderr()).toContain(
      "Secure MCP Filesystem Server running on stdio\n" +
        "Started without allowed directories - waiting for client to provide roots via MCP protocol\n",
    );
    const workspace = await start(["--project-dir", dir, "--console-only"]);
    await workspace.call("get_reference_projects");
    expect(workspace.stderr()).not.toContain("Secure MCP Filesystem Server");
  });

  it("says at start-up which root it cannot write (a ro mount, no permission), and serves it anyway", () => {
    // Run as a user who cannot write `locked`: as root, the unprivileged `nobody` (root writes anywhere).
    const asRoot = process.getuid?.() === 0;
    const base = area.tree("unwritable");
    const locked = area.tree("unwritable/locked", { "r.txt": "R\n" });
    const open = area.tree("unwritable/open");
    fs.chmodSync(area.base, 0o755);
    fs.chmodSync(base, 0o755);
    fs.chmodSync(locked, 0o555);
    fs.chmodSync(open, 0o777);
    const run = (args: string[]) =>
      spawnSync(SERVER_NODE, [MCPFS_BIN, ...args], {
        input: "",
        encoding: "utf8",
        timeout: 30_000,
        cwd: open,
        ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      });
    const fsSurface = run([locked, open]);
    expect(fsSurface.stderr).toContain(
      `Note: ${locked} is not writable by this user: changes there will fail (pass --read-only-dir ${locked} to serve it read-only)\n`,
    );
    expect(fsSurface.stderr).not.toContain(`Note: ${open}`);
    expect(fsSurface.stderr).toContain("Secure MCP Filesystem Server running on stdio");
    const ws = run(["--project-dir", locked, "--console-only"]);
    expect(ws.stderr).toContain(`Note: ${locked} is not writable by this user`);
    expect(ws.stderr).toContain("(pass --read-only to serve it read-only)");
    // Already read-only: nothing to say.
    expect(run(["--read-only", locked]).stderr).not.toContain("Note:");
  });

  it("warns about an unknown flag on stderr and serves anyway", async () => {
    const conn = await start(["--bogus-flag", dir]);
    expect(conn.stderr()).toContain("WARNING: Ignoring unrecognized argument: --bogus-flag");
    expect(await allowedText(conn)).toBe(`Allowed directories:\n${dir}`);
  });
});

describe("workspace style: mcpfs --project-dir DIR", () => {
  it.each([
    ["missing", missing],
    ["not a directory", file],
  ])(
    "refuses a %s project directory: stderr, exit 1, startup log in the state directory",
    async (_what, p) => {
      const cwd = freshCwd(`pd-${_what.replace(/ /g, "-")}`);
      const r = await runCli(["--project-dir", p], { cwd, env: stateOf(cwd) });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: Project directory does not exist or is not a directory: ${p}`);
      expect(startupLog(cwd)).toContain(
        `Error: Project directory does not exist or is not a directory: ${p}`,
      );
      expect(r.stdout).toBe("");
    },
  );

  it("refuses --file-size-limit 0 (must be > 0): stderr, exit 1, startup log", async () => {
    const cwd = freshCwd("fsl0");
    const r = await runCli(["--project-dir", dir, "--file-size-limit", "0"], { cwd, env: stateOf(cwd) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Error: --file-size-limit must be a positive integer: 0");
    expect(startupLog(cwd)).toContain("--file-size-limit must be a positive integer: 0");
  });

  it.each([
    [["--file-size-limit", "-5"], 1, "Error: --file-size-limit must be a positive integer: -5"],
    [["--file-size-limit=-1"], 1, "Error: --file-size-limit must be a positive integer: -1"],
    // A non-integer is refused by the parser itself, exit 2 as argparse does.
    [["--file-size-limit", "abc"], 2, "--file-size-limit must be an integer: abc"],
  ])("refuses %j", (args, code, message) => {
    const out = parseArgs(["--project-dir", dir, ...args], "1.0.0");
    expect(out).toMatchObject({ kind: "exit", code, surface: "workspace" });
    expect(out.kind === "exit" && out.stderr).toContain(message);
  });

  it("accepts every flag of the seed and reaches the config", () => {
    const out = parseArgs(
      [
        "--project-dir",
        dir,
        "--reference-project",
        `docs=${other}`,
        "--reference-project",
        `name=x,path=${other},url=https://example.com/x.git`,
        "--log-level",
        "debug",
        "--log-file",
        "l.log",
        "--console-only",
        "--file-size-limit",
        "42",
        "--fail-on-reviews",
        "--no-enforce-base-branch-format",
      ],
      "1.0.0",
    );
    expect(out.kind).toBe("config");
    if (out.kind !== "config") return;
    expect(out.config).toMatchObject({
      surface: "workspace",
      projectDir: dir,
      referenceProjectArgs: [`docs=${other}`, `name=x,path=${other},url=https://example.com/x.git`],
      logLevel: "DEBUG",
      logFile: "l.log",
      consoleOnly: true,
      fileSizeLimit: 42,
      failOnReviews: true,
      enforceBaseBranchFormat: false,
      unknownArgs: [],
    });
    const dflt = parseArgs(["--project-dir", dir, "--enforce-base-branch-format"], "1.0.0");
    expect(dflt.kind === "config" && dflt.config.enforceBaseBranchFormat).toBe(true);
  });

  it("ignores unknown arguments: one WARNING each plus one INFO summary; --project is no prefix", async () => {
    const conn = await start(
      ["--project-dir", dir, "--console-only", "--bogus", "--other=1", "--project", other, "stray"],
      { cwd: freshCwd("unknown") },
    );
    const err = conn.stderr();
    for (const a of ["--bogus", "--other=1", "--project", other, "stray"])
      expect(err).toContain(`WARNING: Ignoring unrecognized argument: ${a}\n`);
    const summaries = err.split("\n").filter((l) => l.includes("INFO - Ignored 5 unrecognized argument(s)"));
    expect(summaries).toHaveLength(1);
    // The project is --project-dir's value, not --project's.
    expect(conn.client.getInstructions()).toContain(dir);
    expect(conn.client.getInstructions()).not.toContain(other);
  });

  it("logs the same warnings as JSON lines in --log-file", async () => {
    const log = path.join(area.base, "ws-log", "server.log");
    const conn = await start(["--project-dir", dir, "--log-file", log, "--zap"], {
      cwd: freshCwd("logfile"),
    });
    await conn.call("list_allowed_directories").catch(() => undefined);
    const lines = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, msg: "Ignoring unrecognized argument: --zap" }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 30, msg: "Ignored 1 unrecognized argument(s): --zap" }),
    );
  });

  it("--surface workspace without --project-dir is a startup error", async () => {
    const cwd = freshCwd("surface-ws");
    const r = await runCli(["--surface", "workspace"], { cwd, env: stateOf(cwd) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--project-dir is required");
    expect(startupLog(cwd)).toContain("--project-dir is required");
  });
});

describe("common flags", () => {
  it("--help prints usage with every flag on stdout and exits 0", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    for (const flag of [
      "--surface",
      "--read-only",
      "--read-only-dir",
      "--project-dir",
      "--reference-project",
      "--file-size-limit",
      "--version",
    ])
      expect(r.stdout).toContain(flag);
  });

  it("--version prints the package version and exits 0", async () => {
    const r = await runCli(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `mcpfs ${pkgVersion}\n`, stderr: "" });
  });

  it("--surface refuses an unknown surface", () => {
    const out = parseArgs(["--surface", "nope", dir], "1.0.0");
    expect(out).toMatchObject({ kind: "exit", code: 2 });
    expect(out.kind === "exit" && out.stderr).toContain("Allowed choices are filesystem, workspace");
  });

  it("--surface workspace with --project-dir serves the workspace surface", async () => {
    const conn = await start(["--surface", "workspace", "--project-dir", dir, "--console-only"]);
    expect(conn.client.getInstructions()).toContain("safe access to one project");
  });

  it("--read-only makes every root read-only", async () => {
    const conn = await start(["--read-only", dir, other]);
    expect(await allowedText(conn)).toBe(`Allowed directories:\n${dir} (read-only)\n${other} (read-only)`);
    expect((await conn.call("read_text_file", { path: "a.txt" })).text).toBe("A\n");
  });

  it("--read-only-dir adds a read-only root and covers directories inside it (by real path)", async () => {
    const link = path.join(area.base, "other-link");
    fs.symlinkSync(other, link);
    const inner = area.tree("other/inner");
    const conn = await start([dir, inner, "--read-only-dir", link]);
    const r = await conn.call("list_allowed_directories");
    expect(r.structured?.directories).toEqual([
      { path: dir, realPath: dir, readOnly: false },
      { path: inner, realPath: inner, readOnly: true },
      { path: link, realPath: other, readOnly: true },
    ]);
    expect((await conn.call("read_text_file", { path: path.join(link, "o.txt") })).text).toBe("O\n");
  });

  it("read-only: mutating tools are hidden and writes to a read-only root are refused in the core", async () => {
    const listed = async (args: string[]) =>
      ((await (await start(args)).client.listTools()).tools as { name: string }[]).map((t) => t.name);
    const mutating = filesystemTools.filter((t) => t.mutating).map((t) => t.name);
    expect(mutating).toContain("write_file");
    expect((await listed(["--read-only", dir])).filter((n) => mutating.includes(n))).toEqual([]);
    expect(await listed([dir])).toEqual(expect.arrayContaining(mutating));
    const ws = new Workspace(
      [{ path: dir, real: dir, mode: "ro", kind: "directory" }],
      filesystemPolicy.pathRules({}),
    );
    expect(await wordedRejection(ws.resolve("a.txt", { intent: "write" }))).toBe(
      "Access denied - read-only location: a.txt",
    );
    expect(await wordedRejection(ws.resolve("new.txt", { intent: "write" }))).toContain("read-only location");
    expect((await ws.resolve("a.txt", { intent: "read" })).real).toBe(path.join(dir, "a.txt"));
  });
});

/** Speaks raw JSON-RPC over the server's stdio and returns every byte it wrote on stdout. */
async function rawSession(args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(SERVER_NODE, [MCPFS_BIN, ...args], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const replies = new Map<number, (v: unknown) => void>();
  let buffered = "";
  child.stdout.on("data", (d) => {
    stdout += d;
    buffered += d;
    let nl = buffered.indexOf("\n");
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf("\n");
      try {
        const msg = JSON.parse(line);
        replies.get(msg.id)?.(msg);
      } catch {
        // Kept in stdout; the assertion below reports it.
      }
    }
  });
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  const request = (id: number, method: string, params: object) =>
    new Promise((resolve) => {
      replies.set(id, resolve);
      send({ jsonrpc: "2.0", id, method, params });
    });
  await request(1, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await request(2, "tools/list", {});
  await request(3, "tools/call", { name: "list_allowed_directories", arguments: {} });
  await request(4, "tools/call", { name: "read_text_file", arguments: { path: "../../etc/passwd" } });
  const exited = new Promise((resolve) => child.on("close", resolve));
  child.stdin.end();
  await exited;
  return { stdout, stderr };
}

describe("stdout is the MCP channel only", () => {
  it.each([
    ["filesystem", (d: string) => ["--bogus", d]],
    ["workspace", (d: string) => ["--project-dir", d, "--console-only", "--log-level", "DEBUG", "--bogus"]],
  ])("%s surface: every stdout line is a JSON-RPC message", async (_s, argsFor) => {
    const { stdout, stderr } = await rawSession(argsFor(dir), freshCwd(`raw-${_s}`));
    const lines = stdout.split("\n").filter((l) => l !== "");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    // The logs went to stderr.
    expect(stderr).toContain("Ignoring unrecognized argument: --bogus");
  });
});
