/**
 * Command-line mistakes that must fail safe: an empty directory argument grants nothing (it would resolve
 * to the working directory), a near miss of a safety flag is a startup error rather than a read-write
 * server, log files are owner-only, and a project the server cannot write to still starts --read-only.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { runCli, serverPool } from "../helpers/server.js";

const area = tempArea("mcpfs-cli-safety-");
const dir = area.tree("dir", { "a.txt": "A\n" });
const cwd = area.tree("cwd", { "cwd-secret.txt": "from the working directory\n" });
afterAll(() => area.cleanup());

const start = serverPool();
const POSIX = process.platform !== "win32";

describe("empty or blank directory arguments grant nothing", () => {
  it.each([[""], ["  "]])("mcpfs %j DIR serves DIR only, not the working directory", async (blank) => {
    const conn = await start([blank, dir], { cwd });
    expect(conn.stderr()).toContain("Empty directory argument");
    expect((await conn.call("list_allowed_directories")).text).toBe(`Allowed directories:\n${dir}`);
    const r = await conn.call("read_text_file", { path: path.join(cwd, "cwd-secret.txt") });
    expect(r.isError).toBe(true);
    expect(r.text).not.toContain("from the working directory");
  });

  it("mcpfs '' alone exits 1: there is nothing to serve", async () => {
    const r = await runCli([""], { cwd, input: "", timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Empty directory argument");
  });

  it("--read-only-dir '' adds no root", async () => {
    const conn = await start([dir, "--read-only-dir", ""], { cwd });
    expect((await conn.call("list_allowed_directories")).text).toBe(`Allowed directories:\n${dir}`);
    expect((await conn.call("read_text_file", { path: path.join(cwd, "cwd-secret.txt") })).isError).toBe(
      true,
    );
  });

  it("--project-dir '' is a startup error, not the working directory", async () => {
    const state = path.join(cwd, "..", "empty-project-state");
    const r = await runCli(["--project-dir", ""], {
      cwd,
      input: "",
      timeoutMs: 60_000,
      env: { MCPFS_STATE_DIR: state },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--project-dir is empty");
    expect(fs.existsSync(path.join(state, "logs", "mcp_workspace_startup_error.log"))).toBe(true);
    expect(fs.existsSync(path.join(cwd, "logs"))).toBe(false);
  });
});

describe("a near miss of a safety flag is a startup error", () => {
  const cases: [string, string[], string][] = [
    ["--readonly", ["--readonly"], "--read-only"],
    ["--read_only", ["--read_only"], "--read-only"],
    ["--Read-Only=true", ["--Read-Only=true"], "--read-only"],
    ["--read-only-dirs", ["--read-only-dirs", dir], "--read-only-dir"],
    ["--readonly-dir", ["--readonly-dir", dir], "--read-only-dir"],
    ["--readonlydir", ["--readonlydir", dir], "--read-only-dir"],
  ];
  it.each(cases)("filesystem surface: %s", async (_, flags, meant) => {
    const r = await runCli([...flags, dir], { cwd, input: "", timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`did you mean ${meant}?`);
    expect(r.stdout).toBe("");
  });
  it.each(cases)("workspace surface: %s", async (_, flags, meant) => {
    const r = await runCli(["--project-dir", dir, "--console-only", ...flags], {
      cwd,
      input: "",
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`did you mean ${meant}?`);
  });
});

describe("log files", () => {
  it.runIf(POSIX)("the default workspace log and the startup-error log are owner-only (0600)", async () => {
    const project = area.tree("logged", { "x.txt": "x\n" });
    const conn = await start(["--project-dir", project], { cwd });
    await conn.call("check_file_size", { max_lines: 100 }).catch(() => undefined);
    const logs = fs.readdirSync(path.join(project, "logs")).filter((n) => n.startsWith("mcp_workspace_"));
    expect(logs.length).toBeGreaterThan(0);
    for (const n of logs) expect(fs.statSync(path.join(project, "logs", n)).mode & 0o077).toBe(0);

    const state = area.tree("err-state");
    const r = await runCli(["--project-dir", path.join(area.base, "missing")], {
      input: "",
      env: { MCPFS_STATE_DIR: state },
    });
    expect(r.code).toBe(1);
    expect(fs.statSync(path.join(state, "logs", "mcp_workspace_startup_error.log")).mode & 0o077).toBe(0);
  });

  it("a project whose logs/ cannot be created still starts --read-only, logging to stderr with one warning", async () => {
    // A FILE named logs: mkdir fails whoever runs the test (root included).
    const project = area.tree("unwritable", { logs: "not a directory\n", "x.txt": "x\n" });
    const conn = await start(["--project-dir", project, "--read-only"], { cwd });
    const r = await conn.call("read_file", { file_path: "x.txt" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("x");
    const warnings = conn
      .stderr()
      .split("\n")
      .filter((l) => l.includes("Cannot create the log file"));
    expect(warnings).toHaveLength(1);
    expect(fs.readFileSync(path.join(project, "logs"), "utf8")).toBe("not a directory\n");
  });
});
