/** Workspace surface: logging flags, unknown flags, and the tool list, black-box. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-wslog-");
afterAll(() => area.cleanup());

function jsonLines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("structured logging", () => {
  it("writes JSON lines to <project>/logs/mcp_workspace_<timestamp>.log by default, with every call", async () => {
    const project = area.tree("p1", { "a.txt": "a\n" });
    const conn = await startServer(["--project-dir", project]);
    try {
      await conn.call("read_file", { file_path: "a.txt" });
      await conn.call("read_file", { file_path: "missing.txt" });
      await conn.call("save_file", { file_path: "big.txt", content: "x".repeat(5000) });
      await conn.call("edit_file", {
        file_path: "big.txt",
        edits: [{ old_text: "x".repeat(3000), new_text: "y".repeat(4000) }],
      });
      const logs = fs.readdirSync(path.join(project, "logs"));
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^mcp_workspace_\d{8}_\d{6}\.log$/);
      const lines = jsonLines(path.join(project, "logs", logs[0]!));
      expect(String(lines[0]?.msg)).toContain("Logging initialized: file=");
      const calls = lines.filter((l) => l.tool !== undefined);
      expect(calls).toHaveLength(4);
      expect(calls[0]).toMatchObject({
        tool: "read_file",
        params: { file_path: "a.txt" },
        outcome: "success",
      });
      expect(typeof calls[0]?.ms).toBe("number");
      expect(calls[0]?.level).toBe(30);
      expect(calls[1]).toMatchObject({ tool: "read_file", outcome: "error" });
      expect(String(calls[1]?.error)).toContain("File 'missing.txt' does not exist");
      // File contents are elided beyond a short prefix.
      const content = String((calls[2]?.params as Record<string, unknown> | undefined)?.content);
      expect(content.length).toBeLessThan(300);
      expect(content).toContain("(5000 chars)");
      // Also inside nested parameters: edit_file's edits carry file contents too.
      expect(calls[3]).toMatchObject({ tool: "edit_file", outcome: "success" });
      expect(JSON.stringify(calls[3]?.params).length).toBeLessThan(600);
      expect(calls[3]?.params).toMatchObject({
        edits: [{ old_text: `${"x".repeat(200)}…(3000 chars)`, new_text: `${"y".repeat(200)}…(4000 chars)` }],
      });
      // The human-readable form goes to stderr as well.
      expect(conn.stderr()).toMatch(/ - INFO - tool read_file ok \(\d+ms\)/);
    } finally {
      await conn.close();
    }
  });

  it("--log-file chooses the file, --log-level filters, --console-only writes none", async () => {
    const project = area.tree("p2", { "a.txt": "a\n" });
    const file = path.join(area.base, "custom", "server.log");
    const c1 = await startServer(["--project-dir", project, "--log-file", file, "--log-level", "WARNING"]);
    try {
      await c1.call("read_file", { file_path: "a.txt" });
      await c1.call("read_file", { file_path: "../x" });
    } finally {
      await c1.close();
    }
    expect(fs.existsSync(path.join(project, "logs"))).toBe(false);
    // At WARNING the INFO call lines are filtered out.
    expect(jsonLines(file).filter((l) => l.tool !== undefined)).toHaveLength(0);

    const c2 = await startServer(["--project-dir", project, "--console-only", "--log-level", "DEBUG"]);
    try {
      await c2.call("read_file", { file_path: "a.txt" });
      expect(c2.stderr()).toContain("tool read_file ok");
    } finally {
      await c2.close();
    }
    expect(fs.existsSync(path.join(project, "logs"))).toBe(false);
  });
});

describe("command line", () => {
  it("warns about unknown flags, ignores them, and serves the workspace surface under its own name", async () => {
    const project = area.tree("p3", { "a.txt": "a\n" });
    const conn = await startServer([
      "--project-dir",
      project,
      "--console-only",
      "--github-tools",
      "always",
      "--bogus-flag",
      "--project",
      "x",
    ]);
    try {
      expect(conn.stderr()).toContain("Ignoring unrecognized argument: --bogus-flag");
      expect(conn.stderr()).toContain("Ignoring unrecognized argument: --project");
      expect(conn.client.getServerVersion()).toMatchObject({ name: "mcpfs" });
      // mcp-workspace's tools in its registration order (tools/list order), then mcpfs's undo journal's two
      // and its code tools.
      const names = (await conn.client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(names).toEqual([
        "get_reference_projects",
        "read_reference_file",
        "list_reference_directory",
        "search_reference_files",
        "search_files",
        "list_directory",
        "read_file",
        "save_file",
        "append_file",
        "delete_this_file",
        "delete_directory",
        "move_file",
        "edit_file",
        "git",
        "github_issue_view",
        "github_issue_list",
        "github_pr_view",
        "github_search",
        "github_issue_create",
        "github_issue_edit",
        "github_issue_comment",
        "github_label_list",
        "github_pr_create",
        "get_base_branch",
        "check_file_size",
        "check_branch_status",
        "list_changes",
        "undo_change",
        "outline",
        "find_symbol",
        "read_symbol",
        "find_references",
        "replace_symbol",
        "insert_symbol",
        "repo_map",
        "notebook_read",
        "notebook_edit",
        "read_structured",
        "edit_structured",
        "edit_lines",
        "read_document",
        "read_image",
      ]);
      expect((await conn.call("read_file", { file_path: "a.txt" })).text).toBe("a\n");
    } finally {
      await conn.close();
    }
  });

  it("bounds a whole-file read by --max-output-bytes with a hint to read on by line range", async () => {
    const project = area.tree("p5", {
      "big.txt": `${Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n")}\n`,
    });
    const conn = await startServer([
      "--project-dir",
      project,
      "--console-only",
      "--max-output-bytes",
      "1024",
    ]);
    try {
      const r = await conn.call("read_file", { file_path: "big.txt" });
      expect(r.isError).toBe(false);
      expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(1024);
      const [body, note] = r.text.split("\n[mcpfs: ");
      expect(body!.startsWith("line 1\nline 2\n")).toBe(true);
      const next = body!.trimEnd().split("\n").length + 1;
      expect(note).toBe(
        `output truncated at 1024 bytes. Read on with start_line=${next} and end_line (e.g. end_line=${next + 999}).]`,
      );
    } finally {
      await conn.close();
    }
  });

  it("works with the 2026-07-28 client too", async () => {
    const project = area.tree("p4", { "a.txt": "a\nb\n" });
    const conn = await startServer(["--project-dir", project, "--console-only"], { client: "v2" });
    try {
      expect((await conn.call("read_file", { file_path: "a.txt", start_line: 2, end_line: 2 })).text).toBe(
        "2→b\n",
      );
      expect((await conn.call("save_file", { file_path: "n.txt", content: "n" })).text).toBe("true");
    } finally {
      await conn.close();
    }
  });
});
