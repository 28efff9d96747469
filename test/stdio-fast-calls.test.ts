/**
 * The stdio fast path for 2025-era `tools/call` (src/server/fast-calls.ts) against the SDK's own pipeline:
 * the same calls on two identical trees, one server with the fast path and one with MCPFS_NO_FAST_CALLS=1,
 * must give the same replies (valid calls, tool errors, bad arguments, unknown tools, mutations) on both
 * surfaces. Then, on the raw wire: calls sent before `notifications/initialized` are answered, progress
 * reaches the client, a cancelled call gets no reply while the server keeps answering.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "./helpers/fixtures.js";
import { MCPFS_BIN, SERVER_NODE, serverPool } from "./helpers/server.js";

const area = tempArea("mcpfs-fast-");
const start = serverPool();
afterAll(() => area.cleanup());

const TREE: Record<string, string> = {
  "a.txt": "one\ntwo\nthree\n",
  "src/main.ts": "export const x = 1;\n",
  "src/util.ts": "export function f() {\n  return 2;\n}\n",
  "docs/readme.md": "# Title\n\nSome text.\n",
  ".gitignore": "ignored/\n",
  "ignored/x.txt": "secret\n",
};

/** Dates and the tree's own path differ between the two copies; everything else must be equal. */
function normalize(value: unknown, root: string): string {
  return JSON.stringify(value)
    .split(root)
    .join("<root>")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, "<iso>")
    .replace(/\w{3} \w{3} \d\d \d{4} \d\d:\d\d:\d\d GMT[+-]\d{4} \([^)]*\)/g, "<date>");
}

type Call = [tool: string, args: Record<string, unknown>];

async function replies(args: (root: string) => string[], calls: (root: string) => Call[], fast: boolean) {
  const root = area.tree(fast ? `fast-${Math.random()}` : `sdk-${Math.random()}`, TREE);
  const conn = await start([...args(root), "--log-level", "DEBUG"], {
    env: fast ? {} : { MCPFS_NO_FAST_CALLS: "1" },
  });
  const out: string[] = [];
  for (const [tool, a] of calls(root)) {
    try {
      const r = await conn.client.callTool({ name: tool, arguments: a }, undefined, { timeout: 30_000 });
      out.push(`${tool}: ${normalize(r, root)}`);
    } catch (err) {
      out.push(`${tool} threw: ${normalize(String((err as Error).message), root)}`);
    }
  }
  // The fast server did serve (most of) them on the fast path; the other never did.
  expect(conn.stderr().includes("(fast path)")).toBe(fast);
  return out;
}

describe("fast path and SDK pipeline answer alike", () => {
  it("filesystem surface", async () => {
    const calls = (r: string): Call[] => [
      ["list_allowed_directories", {}],
      ["get_file_info", { path: path.join(r, "a.txt") }],
      ["get_file_info", { path: path.join(r, "src") }],
      ["get_file_info", { path: path.join(r, "missing.txt") }],
      ["get_file_info", { path: "/etc/passwd" }],
      ["get_file_info", { path: 5 }],
      ["get_file_info", {}],
      ["read_text_file", { path: path.join(r, "a.txt"), head: 2 }],
      ["read_text_file", { path: path.join(r, "a.txt"), head: -1 }],
      ["read_text_file", { path: path.join(r, "a.txt"), startLine: 2, endLine: 3, lineNumbers: true }],
      ["read_multiple_files", { paths: [path.join(r, "a.txt"), path.join(r, "nope")] }],
      ["list_directory", { path: r }],
      ["list_directory_with_sizes", { path: r, sortBy: "size" }],
      ["directory_tree", { path: r }],
      ["search_files", { path: r, pattern: "**/*.ts" }],
      ["grep", { path: r, pattern: "export" }],
      [
        "edit_file",
        { path: path.join(r, "a.txt"), edits: [{ oldText: "two", newText: "TWO" }], dryRun: true },
      ],
      ["edit_file", { path: path.join(r, "a.txt"), edits: [{ oldText: "zzz", newText: "y" }] }],
      ["write_file", { path: path.join(r, "new/b.txt"), content: "x" }],
      ["write_file", { path: path.join(r, "b.txt"), content: "hello\n" }],
      ["append_file", { path: path.join(r, "b.txt"), content: "more\n" }],
      ["create_directory", { path: path.join(r, "made/deep") }],
      ["move_file", { source: path.join(r, "b.txt"), destination: path.join(r, "made/b.txt") }],
      ["copy_file", { source: path.join(r, "made"), destination: path.join(r, "copy") }],
      ["delete_file", { path: path.join(r, "copy/b.txt") }],
      ["delete_directory", { path: path.join(r, "copy"), recursive: true }],
      ["no_such_tool", {}],
    ];
    const args = (r: string) => [r];
    const [fast, sdk] = await Promise.all([replies(args, calls, true), replies(args, calls, false)]);
    expect(fast).toHaveLength(calls("r").length);
    // The list holds real successes and real failures of each kind.
    expect(fast.some((l) => l.startsWith("get_file_info:") && l.includes("isFile: true"))).toBe(true);
    expect(fast.some((l) => l.includes("Input validation error"))).toBe(true);
    expect(fast.some((l) => l.startsWith("no_such_tool threw"))).toBe(true);
    for (let i = 0; i < fast.length; i++) expect(fast[i]).toBe(sdk[i]);
  });

  it("workspace surface", async () => {
    const calls = (): Call[] => [
      ["list_directory", {}],
      ["read_file", { file_path: "a.txt", start_line: 2, end_line: 3, with_line_numbers: true }],
      ["read_file", { file_path: "ignored/x.txt" }],
      ["read_file", { file_path: "../outside.txt" }],
      ["read_file", {}],
      ["save_file", { file_path: "n/c.txt", content: "c\n" }],
      ["append_file", { file_path: "n/c.txt", content: "d\n" }],
      ["edit_file", { file_path: "n/c.txt", old_string: "c", new_string: "C" }],
      ["edit_file", { file_path: "n/c.txt", edits: [{ old_text: "zzz", new_text: "y" }] }],
      ["search_files", { glob: "**/*.ts", pattern: "export" }],
      ["check_file_size", { max_lines: 2 }],
      ["move_file", { source_path: "n/c.txt", destination_path: "n/d.txt" }],
      ["delete_this_file", { file_path: "n/d.txt" }],
      ["delete_directory", { dir_path: "n" }],
      ["get_reference_projects", {}],
    ];
    const args = (r: string) => ["--project-dir", r, "--console-only"];
    const [fast, sdk] = await Promise.all([replies(args, calls, true), replies(args, calls, false)]);
    expect(fast.some((l) => l.startsWith("read_file:") && l.includes("→"))).toBe(true);
    for (let i = 0; i < fast.length; i++) expect(fast[i]).toBe(sdk[i]);
  });

  it("the fast path really serves the calls (and the switch really turns it off)", async () => {
    const root = area.tree("which", TREE);
    const on = await start([root, "--log-level", "DEBUG"]);
    const off = await start([root, "--log-level", "DEBUG"], { env: { MCPFS_NO_FAST_CALLS: "1" } });
    // The first call after the listing may still find the tool modules loading: that one goes to the SDK.
    for (const c of [on, off])
      for (let i = 0; i < 20; i++)
        expect((await c.call("get_file_info", { path: path.join(root, "a.txt") })).isError).toBe(false);
    expect(on.stderr()).toContain("served from the stdio wire (fast path)");
    expect(off.stderr()).not.toContain("fast path");
  });
});

/** A client that speaks JSON-RPC lines to the built server directly, to see exactly what goes over the wire. */
class RawClient {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly received: Record<string, unknown>[] = [];
  stderr = "";
  private buf = "";

  constructor(args: string[], env: Record<string, string> = {}) {
    this.proc = spawn(SERVER_NODE, [MCPFS_BIN, ...args], { env: { ...process.env, ...env } });
    this.proc.stdout.on("data", (d: Buffer) => {
      this.buf += d.toString();
      for (let nl = this.buf.indexOf("\n"); nl !== -1; nl = this.buf.indexOf("\n")) {
        this.received.push(JSON.parse(this.buf.slice(0, nl)));
        this.buf = this.buf.slice(nl + 1);
      }
    });
    this.proc.stderr.on("data", (d: Buffer) => {
      this.stderr += d.toString();
    });
  }

  send(msg: Record<string, unknown>): void {
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...msg })}\n`);
  }

  async waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 20_000) {
    const end = Date.now() + ms;
    for (;;) {
      const found = this.received.find(pred);
      if (found) return found;
      if (Date.now() > end)
        throw new Error(`no such message within ${ms} ms; stderr: ${this.stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async initialize(): Promise<void> {
    this.send({
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await this.waitFor((m) => m.id === 0);
  }

  close(): void {
    this.proc.kill("SIGKILL");
  }
}

describe("on the raw wire", () => {
  const clients: RawClient[] = [];
  afterAll(() => {
    for (const c of clients) c.close();
  });
  const raw = (args: string[], env?: Record<string, string>) => {
    const c = new RawClient(args, env);
    clients.push(c);
    return c;
  };

  it("a call sent before notifications/initialized is answered (by the SDK), then the fast path takes over", async () => {
    const root = area.tree("early", TREE);
    const c = raw([root, "--log-level", "DEBUG"]);
    await c.initialize();
    c.send({
      id: 1,
      method: "tools/call",
      params: { name: "get_file_info", arguments: { path: path.join(root, "a.txt") } },
    });
    const early = await c.waitFor((m) => m.id === 1);
    expect(JSON.stringify(early)).toContain("isFile: true");
    expect(c.stderr).not.toContain("fast path");
    c.send({ method: "notifications/initialized" });
    c.send({
      id: 2,
      method: "tools/call",
      params: { name: "get_file_info", arguments: { path: path.join(root, "a.txt") } },
    });
    const later = (await c.waitFor((m) => m.id === 2)) as { result: unknown };
    expect(normalize(later.result, root)).toBe(normalize((early as { result: unknown }).result, root));
    expect(c.stderr).toContain("fast path");
  });

  it("progress reaches the client and a cancelled call gets no reply; the server keeps answering", async () => {
    // A search that emits progress before it ends: the pure-TS engine over accented text with a pattern
    // that has no literal; the data doubles (hard links) until a progress notification comes first.
    const words = ["alpha", "béta", "gamma", "délta", "thêta"];
    const lines = Array.from({ length: 4000 }, (_, l) =>
      Array.from({ length: 8 }, (_, w) => `${words[(l * 7 + w * 3) % 5]}${(l + w) % 100}`).join(" "),
    );
    const base = area.tree("slow", { "c0/f0.txt": `${lines.join("\n")}\n` });
    for (let f = 1; f < 50; f++) fs.linkSync(path.join(base, "c0/f0.txt"), path.join(base, `c0/f${f}.txt`));
    const c = raw([base, "--log-level", "DEBUG"], { MCPFS_GREP_ENGINE: "js" });
    await c.initialize();
    c.send({ method: "notifications/initialized" });
    // Until the tool modules are loaded calls go to the SDK; this test is about the fast path.
    for (let i = 1; i <= 50 && !c.stderr.includes("(fast path)"); i++) {
      c.send({
        id: 1000 + i,
        method: "tools/call",
        params: { name: "list_allowed_directories", arguments: {} },
      });
      await c.waitFor((m) => m.id === 1000 + i);
    }
    expect(c.stderr).toContain("(fast path)");
    let id = 10;
    let progressed: Record<string, unknown> | undefined;
    for (let round = 0; round < 6 && !progressed; round++) {
      id++;
      const callId = id;
      c.send({
        id: callId,
        method: "tools/call",
        params: {
          name: "grep",
          arguments: { path: base, pattern: String.raw`\b\w+\d{3}\b` },
          _meta: { progressToken: `p${callId}` },
        },
      });
      const first = await c.waitFor(
        (m) =>
          m.id === callId ||
          (m.method === "notifications/progress" &&
            (m.params as { progressToken?: string }).progressToken === `p${callId}`),
        120_000,
      );
      if (first.id === callId) {
        // Finished before any progress: twice the data, again.
        const copies = fs.readdirSync(base);
        for (const d of copies) {
          const to = path.join(base, `c${copies.length + Number(d.slice(1))}`);
          fs.mkdirSync(to);
          for (const f of fs.readdirSync(path.join(base, d)))
            fs.linkSync(path.join(base, d, f), path.join(to, f));
        }
        continue;
      }
      progressed = first;
      c.send({ method: "notifications/cancelled", params: { requestId: callId, reason: "test" } });
      c.send({ id: 99, method: "tools/call", params: { name: "list_allowed_directories", arguments: {} } });
      const answer = (await c.waitFor((m) => m.id === 99)) as { result: { content: { text: string }[] } };
      expect(answer.result.content[0]!.text).toContain(base);
      // The search stops (the server logs it as failed, cancelled) and no reply for it ever arrives.
      for (let i = 0; i < 600 && !/tool grep failed/.test(c.stderr); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(c.stderr).toMatch(/tool grep failed[^\n]*Cancelled/);
      await new Promise((r) => setTimeout(r, 300));
      expect(c.received.filter((m) => m.id === callId)).toEqual([]);
    }
    expect(progressed, "a progress notification arrived before the search ended").toBeDefined();
  });
});
