/** The stdio line transport over in-memory streams: framing across chunks, and an overlong line answered. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineStdioTransport } from "./stdio-transport.js";

function wire(limit: number, drainMs?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const received: unknown[] = [];
  const oversize: number[] = [];
  const t = new LineStdioTransport({ limit, stdin, stdout, drainMs, onOversize: (n) => oversize.push(n) });
  t.onmessage = (m) => received.push(m);
  let closed = false;
  t.onclose = () => {
    closed = true;
  };
  let out = "";
  stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const replies = () =>
    out
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  return { t, stdin, received, oversize, replies, closed: () => closed };
}

const tick = () => new Promise((r) => setImmediate(r));
const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;

describe("LineStdioTransport", () => {
  it("frames messages split across chunks and several in one chunk; skips non-JSON lines; strips CR", async () => {
    const w = wire(1024);
    await w.t.start();
    const text = `${ping(1)}\n${ping(2)}\r\nnot json\n\n${ping(3)}\n`;
    for (let i = 0; i < text.length; i += 7) w.stdin.write(text.slice(i, i + 7));
    await tick();
    expect(w.received.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    expect(w.replies()).toEqual([]);
  });

  it.each([
    [
      "first",
      (pad: string) =>
        `{"jsonrpc":"2.0","id":"a\\"b","method":"tools/call","params":{"name":"write_file","arguments":{"content":"${pad}"}}}`,
      'a"b',
    ],
    [
      "last",
      (pad: string) =>
        `{"method":"tools/call","params":{"name":"save_file","arguments":{"content":"${pad}","id":9}},"jsonrpc":"2.0","id":42}`,
      42,
    ],
  ] as const)("answers an overlong request whose id comes %s, then goes on", async (_where, make, id) => {
    const w = wire(1000);
    await w.t.start();
    const big = make("\\u0022id\\u0022: 7, ".repeat(500));
    // In chunks, so the limit is crossed mid-line.
    for (let i = 0; i < big.length; i += 333) w.stdin.write(big.slice(i, i + 333));
    w.stdin.write(`\n${ping(5)}\n`);
    await tick();
    expect(w.oversize).toEqual([Buffer.byteLength(big)]);
    const [reply] = w.replies();
    expect(reply).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32600 } });
    const tool = big.includes("save_file") ? "save_file" : "write_file";
    expect(reply.error.message).toContain(`${tool} a first part, then append_file the rest`);
    expect(w.received).toEqual([JSON.parse(ping(5))]);
  });

  it("drops an overlong notification or response without answering", async () => {
    const w = wire(100);
    await w.t.start();
    w.stdin.write(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${"x".repeat(200)}"}}\n`);
    w.stdin.write(`{"jsonrpc":"2.0","id":3,"result":{"r":"${"x".repeat(200)}"}}\n`);
    w.stdin.write(`${ping(6)}\n`);
    await tick();
    expect(w.oversize).toHaveLength(2);
    expect(w.replies()).toEqual([]);
    expect(w.received).toEqual([JSON.parse(ping(6))]);
  });

  it("closes when stdin ends", async () => {
    const w = wire(100);
    await w.t.start();
    w.stdin.end();
    await tick();
    expect(w.closed()).toBe(true);
    await expect(w.t.send(JSON.parse(ping(1)))).rejects.toThrow("closed");
  });

  it("on stdin's end, answers the calls received first, then closes", async () => {
    const w = wire(100);
    await w.t.start();
    w.stdin.end(`${ping(1)}\n${ping(2)}\n`);
    await tick();
    expect(w.closed()).toBe(false);
    await w.t.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 1, progress: 1 },
    });
    await w.t.send({ jsonrpc: "2.0", id: 1, result: {} });
    await tick();
    expect(w.closed()).toBe(false);
    await w.t.send({ jsonrpc: "2.0", id: 2, result: {} });
    await tick();
    expect(w.closed()).toBe(true);
    expect(w.replies().map((r) => r.id)).toEqual([undefined, 1, 2]);
  });

  it("does not wait for a cancelled call or a listen stream, and waits at most drainMs for the others", async () => {
    const w = wire(200, 50);
    await w.t.start();
    const cancel = '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}';
    const listen = '{"jsonrpc":"2.0","id":"s","method":"subscriptions/listen","params":{}}';
    w.stdin.end(`${ping(1).replace("1", '"a"')}\n${cancel}\n${listen}\n`);
    await tick();
    expect(w.closed()).toBe(true);

    const v = wire(200, 50);
    await v.t.start();
    v.stdin.end(`${ping(7)}\n`);
    await tick();
    expect(v.closed()).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(v.closed()).toBe(true);
  });
});
