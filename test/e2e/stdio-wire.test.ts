/**
 * The stdio wire as a client sees it, raw JSON-RPC lines to the built server (every message goes through
 * the SDK's transport and pipeline): a call sent before `notifications/initialized` is answered, progress
 * reaches the client, a cancelled call gets no reply while the server keeps answering, and a client that
 * closes its side after sending (a shell pipe) still gets every answer.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { MCPFS_BIN, SERVER_NODE } from "../helpers/server.js";

const area = tempArea("mcpfs-wire-");
afterAll(() => area.cleanup());

/** A second name for the same bytes: a hard link where the volume has them, else a copy. */
function alias(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}

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

  /** Waits up to 100 s: just inside the test's own timeout, so a failure shows stderr (no shorter clock). */
  async waitFor(pred: (m: Record<string, unknown>) => boolean, ms = 100_000) {
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

  it("a call sent before notifications/initialized is answered, and the same call after it alike", async () => {
    const root = area.tree("early", { "a.txt": "one\ntwo\nthree\n" });
    const c = raw([root]);
    await c.initialize();
    const call = (id: number) =>
      c.send({
        id,
        method: "tools/call",
        // A read, not get_file_info: the first look at a file's content (its encoding) moves its access
        // time on a relatime volume, which would make the two replies differ for that reason alone.
        params: { name: "read_text_file", arguments: { path: path.join(root, "a.txt") } },
      });
    call(1);
    const early = (await c.waitFor((m) => m.id === 1)) as { result: unknown };
    expect(JSON.stringify(early)).toContain("one\\ntwo\\nthree");
    c.send({ method: "notifications/initialized" });
    call(2);
    const later = (await c.waitFor((m) => m.id === 2)) as { result: unknown };
    expect(later.result).toEqual(early.result);
  });

  it("progress reaches the client and a cancelled call gets no reply; the server keeps answering", async () => {
    // A search that emits progress before it ends: the pure-TS engine over accented text with a pattern
    // that has no literal; the data doubles (hard links) until a progress notification comes first.
    const words = ["alpha", "béta", "gamma", "délta", "thêta"];
    const lines = Array.from({ length: 4000 }, (_, l) =>
      Array.from({ length: 8 }, (_, w) => `${words[(l * 7 + w * 3) % 5]}${(l + w) % 100}`).join(" "),
    );
    const base = area.tree("slow", { "c0/f0.txt": `${lines.join("\n")}\n` });
    for (let f = 1; f < 50; f++) alias(path.join(base, "c0/f0.txt"), path.join(base, `c0/f${f}.txt`));
    const c = raw([base, "--log-level", "DEBUG"], { MCPFS_GREP_ENGINE: "js" });
    await c.initialize();
    c.send({ method: "notifications/initialized" });
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
          for (const f of fs.readdirSync(path.join(base, d))) alias(path.join(base, d, f), path.join(to, f));
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

  it("a client that sends its calls and closes stdin at once gets every answer, then the server exits", async () => {
    // As `printf '…' | mcpfs DIR` does: the official server answers such a pipe; ending at stdin's end dropped them.
    const root = area.tree("piped", { "a.txt": "piped\n", "d/b.txt": "b\n", "d/e/c.txt": "c\n" });
    const c = raw([root]);
    const exited = new Promise<number | null>((resolve) => c.proc.on("exit", resolve));
    c.send({
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } },
    });
    c.send({ method: "notifications/initialized" });
    c.send({
      id: 1,
      method: "tools/call",
      params: { name: "read_text_file", arguments: { path: path.join(root, "a.txt") } },
    });
    c.send({ id: 2, method: "tools/call", params: { name: "directory_tree", arguments: { path: root } } });
    c.proc.stdin.end();
    expect(await exited).toBe(0);
    expect(c.received.map((m) => m.id).sort()).toEqual([0, 1, 2]);
    expect(JSON.stringify(c.received.find((m) => m.id === 1))).toContain("piped\\n");
    expect(JSON.stringify(c.received.find((m) => m.id === 2))).toContain("c.txt");
  });
});
