/**
 * Errors as data, seen from a client: a representative error of each kind names the path the call asked
 * for (as the caller spelled it) and never an allowed directory, the server's cwd or a file outside.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-kinds-");
const outside = area.tree("outside", { "secret.txt": "top secret\n" });
const files = {
  "a.txt": "alpha\n",
  "b.txt": "beta\n",
  "bad.bin": Buffer.from([0x61, 0xff, 0xfe, 0x0a]),
  ".gitignore": "*.log\n",
  "debug.log": "ignored\n",
  "full/inner.txt": "x\n",
  "dir/": null,
  ".git/config": "[core]\n",
  "private/key.pem": "k\n",
};
const fsRoot = area.tree("fsroot", files);
const roRoot = area.tree("roroot", { "kept.txt": "kept\n" });
const project = area.tree("project", files);

/** What no error may show: the allowed directories (as given and real), the secret, the other root. */
function leaks(text: string): string[] {
  const secrets = [
    fsRoot,
    project,
    roRoot,
    outside,
    fs.realpathSync(fsRoot),
    fs.realpathSync(outside),
    "top secret",
  ];
  return secrets.filter((s) => text.includes(s));
}

interface Case {
  kind: string;
  tool: string;
  args: Record<string, unknown>;
  /** The path the reply must name (as given); undefined where the surface's words leave it out on purpose. */
  names: string | undefined;
  /** The reply's words, in part. */
  says: RegExp;
}

async function check(conn: Connection, c: Case): Promise<void> {
  const r = await conn.call(c.tool, c.args);
  const what = `${c.kind}: ${c.tool} ${JSON.stringify(c.args)} -> ${r.text}`;
  expect(r.isError, what).toBe(true);
  expect(r.text, what).toMatch(c.says);
  if (c.names !== undefined) expect(r.text, what).toContain(c.names);
  expect(leaks(r.text), what).toEqual([]);
}

describe("filesystem surface: every error names the requested path", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([fsRoot, "--read-only-dir", roRoot, "--deny", "private/**"]);
  });
  afterAll(() => conn.close());

  const cases: Case[] = [
    {
      kind: "not_found",
      tool: "read_text_file",
      args: { path: "nope.txt" },
      names: "nope.txt",
      says: /No such file/,
    },
    {
      kind: "outside_roots",
      tool: "read_text_file",
      args: { path: "../outside/secret.txt" },
      names: "../outside/secret.txt",
      says: /^Access denied - path outside allowed directories: /,
    },
    { kind: "not_file", tool: "read_text_file", args: { path: "dir" }, names: "dir", says: /directory/i },
    {
      kind: "not_directory",
      tool: "list_directory",
      args: { path: "a.txt" },
      names: "a.txt",
      says: /Not a directory/,
    },
    {
      kind: "not_empty",
      tool: "delete_directory",
      args: { path: "full" },
      names: "full",
      says: /^Directory not empty: full\. Pass recursive: true/,
    },
    {
      kind: "exists",
      tool: "move_file",
      args: { source: "a.txt", destination: "b.txt" },
      names: "b.txt",
      says: /^Destination already exists: /,
    },
    {
      kind: "not_utf8",
      tool: "edit_file",
      args: { path: "bad.bin", edits: [{ oldText: "a", newText: "b" }] },
      names: "bad.bin",
      says: /UTF-8/,
    },
    {
      kind: "ignored",
      tool: "read_text_file",
      args: { path: "private/key.pem" },
      names: "private/key.pem",
      says: /--deny/,
    },
    {
      kind: "denied",
      tool: "write_file",
      args: { path: ".git/config", content: "x" },
      names: ".git/config",
      says: /--allow-git-dir-writes/,
    },
    {
      kind: "not_directory (a parent is a file)",
      tool: "create_directory",
      args: { path: "a.txt/sub" },
      names: "a.txt/sub",
      says: /a parent of a\.txt\/sub is a file/,
    },
  ];
  it.each(cases)("$kind", async (c) => check(conn, c));

  it("read_only names the path under the read-only root", async () => {
    const target = path.join(roRoot, "kept.txt");
    const r = await conn.call("write_file", { path: target, content: "x" });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Access denied - read-only location: ${target}`);
    expect(fs.readFileSync(target, "utf8")).toBe("kept\n");
  });
});

describe("workspace surface: every error names the requested path", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(() => conn.close());

  const err = /^Error executing tool /;
  const cases: Case[] = [
    { kind: "not_found", tool: "read_file", args: { file_path: "nope.txt" }, names: "'nope.txt'", says: err },
    {
      kind: "outside_roots",
      tool: "read_file",
      args: { file_path: "../outside/secret.txt" },
      names: "'../outside/secret.txt'",
      says: /Security error: Path '\.\.\/outside\/secret\.txt' contains '\.\.' traversal\./,
    },
    {
      kind: "ignored",
      tool: "read_file",
      args: { file_path: "debug.log" },
      names: "'debug.log'",
      says: /\.gitignore/,
    },
    {
      kind: "not_file",
      tool: "read_file",
      args: { file_path: "dir" },
      names: "'dir'",
      says: /is not a file/,
    },
    {
      kind: "not_directory",
      tool: "delete_directory",
      args: { dir_path: "a.txt" },
      names: "'a.txt'",
      says: /is a file, not a directory\. Use delete_this_file instead\./,
    },
    {
      kind: "not_empty",
      tool: "delete_directory",
      args: { dir_path: "full" },
      names: "'full'",
      says: /is not empty\. Pass recursive=True/,
    },
    {
      kind: "not_utf8",
      tool: "read_file",
      args: { file_path: "bad.bin" },
      names: "'bad.bin'",
      says: /contains invalid characters/,
    },
    {
      kind: "not_found (append)",
      tool: "append_file",
      args: { file_path: "gone.txt", content: "x" },
      names: "'gone.txt'",
      says: /does not exist/,
    },
    // mcp-workspace's move_file answers in the seed's few words (no path): kept for drop-in clients.
    {
      kind: "exists (move_file)",
      tool: "move_file",
      args: { source_path: "a.txt", destination_path: "b.txt" },
      names: undefined,
      says: /: Destination already exists$/,
    },
  ];
  it.each(cases)("$kind", async (c) => check(conn, c));
});

afterAll(() => area.cleanup());
