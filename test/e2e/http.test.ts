/**
 * The Streamable HTTP transport end to end: the built server on a loopback port, the SDK's own HTTP
 * clients (v1 = 2025-11-25 sessions, v2 = 2026-07-28 per request), and raw requests for the guards.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import {
  connectHttp,
  type HttpServerProcess,
  INITIALIZE,
  rawPost,
  startHttpServer,
} from "../helpers/http.js";

const area = tempArea("mcpfs-http-");
const root = area.tree("root", {
  "a.txt": "alpha\nbeta\n",
  "sub/b.md": "# b\n",
  "sub/c.txt": "c\n",
  "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 1, 2, 3]),
  "big.txt": `${"x".repeat(200)}\n`.repeat(100),
  ".gitignore": "ignored/\n",
  "ignored/secret.txt": "hidden\n",
});
const outside = area.tree("outside", { "o.txt": "outside\n" });

let srv: HttpServerProcess;
beforeAll(async () => {
  srv = await startHttpServer([root, "--max-output-bytes", "4096"]);
});
afterAll(async () => {
  await srv?.stop();
  area.cleanup();
});

const fileUri = (p: string) => `file://${p}`;

describe.each(["v1", "v2"] as const)("over HTTP with the %s client", (kind) => {
  it("lists and calls tools", async () => {
    const c = await connectHttp(srv.url, { client: kind });
    try {
      const { tools } = await c.client.listTools();
      expect(tools.map((t: { name: string }) => t.name)).toContain("read_text_file");
      expect((await c.call("list_allowed_directories")).text).toBe(`Allowed directories:\n${root}`);
      expect((await c.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe("alpha\nbeta\n");
      const denied = await c.call("read_text_file", { path: path.join(outside, "o.txt") });
      expect(denied.isError).toBe(true);
      expect(denied.text).not.toContain(root);
    } finally {
      await c.close();
    }
  });

  it("lists the roots as resources and the file template", async () => {
    const c = await connectHttp(srv.url, { client: kind });
    try {
      const { resources } = await c.client.listResources();
      expect(resources).toEqual([
        expect.objectContaining({ uri: fileUri(root), mimeType: "inode/directory" }),
      ]);
      const { resourceTemplates } = await c.client.listResourceTemplates();
      expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
        "file://{+path}",
      ]);
    } finally {
      await c.close();
    }
  });

  it("reads text, binary and directory resources, bounded and confined", async () => {
    const c = await connectHttp(srv.url, { client: kind });
    try {
      const text = await c.client.readResource({ uri: fileUri(path.join(root, "a.txt")) });
      expect(text.contents).toEqual([
        { uri: fileUri(path.join(root, "a.txt")), mimeType: "text/plain", text: "alpha\nbeta\n" },
      ]);
      const md = await c.client.readResource({ uri: fileUri(path.join(root, "sub/b.md")) });
      expect(md.contents[0].mimeType).toBe("text/markdown");
      const png = await c.client.readResource({ uri: fileUri(path.join(root, "img.png")) });
      expect(png.contents[0].mimeType).toBe("image/png");
      expect(Buffer.from(png.contents[0].blob, "base64")).toEqual(
        fs.readFileSync(path.join(root, "img.png")),
      );
      const big = await c.client.readResource({ uri: fileUri(path.join(root, "big.txt")) });
      expect(Buffer.byteLength(big.contents[0].text)).toBeLessThan(4096 + 300);
      expect(big.contents[0].text).toContain(
        "[mcpfs: output truncated at 4096 bytes; the file has 20100 bytes.",
      );
      const dir = await c.client.readResource({ uri: fileUri(root) });
      expect(dir.contents[0].text).toBe(
        "[FILE] .gitignore\n[FILE] a.txt\n[FILE] big.txt\n[FILE] img.png\n[DIR] sub",
      );
      for (const uri of [
        fileUri(path.join(outside, "o.txt")),
        fileUri(`${root}/../outside/o.txt`),
        `file://${root}/missing.txt`,
      ]) {
        const err = await c.client.readResource({ uri }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(err, uri).toBeInstanceOf(Error);
        // Errors name the requested URI only, never the allow-list.
        if (!uri.includes(root)) expect(String(err?.message)).not.toContain(root);
      }
    } finally {
      await c.close();
    }
  });

  it("completes the template's path within the roots, gitignore aware", async () => {
    const c = await connectHttp(srv.url, { client: kind });
    const complete = async (value: string) =>
      (
        await c.client.complete({
          ref: { type: "ref/resource", uri: "file://{+path}" },
          argument: { name: "path", value },
        })
      ).completion.values;
    try {
      expect(await complete("")).toEqual([`${root}/`]);
      expect(await complete(root.slice(0, -2))).toEqual([`${root}/`]);
      expect(await complete(`${root}/`)).toEqual([
        `${root}/.gitignore`,
        `${root}/a.txt`,
        `${root}/big.txt`,
        `${root}/img.png`,
        `${root}/sub/`,
      ]);
      expect(await complete(`${root}/s`)).toEqual([`${root}/sub/`]);
      expect(await complete(`${root}/sub/`)).toEqual([`${root}/sub/b.md`, `${root}/sub/c.txt`]);
      expect(await complete(`${root}/ign`)).toEqual([]);
      expect(await complete(`${outside}/`)).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe("logging notifications", () => {
  it("2025 era: sent only after the client sets a level, at or above it", async () => {
    const c = await connectHttp(srv.url, { client: "v1" });
    const got: { level: string; data: { tool?: string } }[] = [];
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n: { params: never }) => {
      got.push(n.params);
    });
    try {
      await c.call("list_allowed_directories");
      expect(got).toEqual([]);
      await c.client.setLoggingLevel("info");
      await c.call("list_allowed_directories");
      expect(got).toEqual([expect.objectContaining({ level: "info", logger: "mcpfs" })]);
      expect(got[0]!.data.tool).toBe("list_allowed_directories");
      await c.client.setLoggingLevel("error");
      await c.call("list_allowed_directories");
      await c.call("read_text_file", { path: "missing.txt" });
      expect(got).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it("2026 era: sent when the request carries a log level", async () => {
    const c = await connectHttp(srv.url, { client: "v2" });
    const got: unknown[] = [];
    c.client.setNotificationHandler("notifications/message", (n: { params: unknown }) => {
      got.push(n.params);
    });
    try {
      await c.client.callTool({ name: "list_allowed_directories", arguments: {} });
      expect(got).toEqual([]);
      await c.client.callTool({
        name: "list_allowed_directories",
        arguments: {},
        _meta: { [LOG_LEVEL_META_KEY]: "info" },
      });
      expect(got).toEqual([expect.objectContaining({ level: "info", logger: "mcpfs" })]);
    } finally {
      await c.close();
    }
  });
});

describe("resource subscriptions", () => {
  it("2025 era: resources/subscribe then a change sends notifications/resources/updated", async () => {
    const file = path.join(root, "sub/c.txt");
    const c = await connectHttp(srv.url, { client: "v1" });
    try {
      const updated = new Promise<string>((resolve) => {
        c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n: { params: { uri: string } }) =>
          resolve(n.params.uri),
        );
      });
      await c.client.subscribeResource({ uri: fileUri(file) });
      await new Promise((r) => setTimeout(r, 300));
      fs.writeFileSync(file, "changed\n");
      expect(await updated).toBe(fileUri(file));
      await c.client.unsubscribeResource({ uri: fileUri(file) });
      const outsideErr = await c.client.subscribeResource({ uri: fileUri(path.join(outside, "o.txt")) }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(outsideErr).toBeInstanceOf(Error);
    } finally {
      await c.close();
    }
  });

  it("2026 era: subscriptions/listen with resourceSubscriptions gets the update", async () => {
    const file = path.join(root, "sub/b.md");
    const c = await connectHttp(srv.url, { client: "v2" });
    try {
      const updated = new Promise<string>((resolve) => {
        c.client.setNotificationHandler("notifications/resources/updated", (n: { params: { uri: string } }) =>
          resolve(n.params.uri),
        );
      });
      const sub = await c.client.listen({ resourceSubscriptions: [fileUri(file)] });
      await new Promise((r) => setTimeout(r, 300));
      fs.writeFileSync(file, "# b changed\n");
      expect(await updated).toBe(fileUri(file));
      await sub.close();
    } finally {
      await c.close();
    }
  });
});

/** A raw request with a chosen Host header (fetch does not let a caller set Host). */
function rawWithHost(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: "POST",
        headers: {
          Host: host,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          Authorization: `Bearer ${srv.token}`,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(INITIALIZE);
  });
}

describe("HTTP guards", () => {
  it("rejects a foreign Origin and a foreign Host (DNS rebinding) with 403", async () => {
    expect((await rawPost(srv.url, INITIALIZE, { Origin: "http://evil.example" })).status).toBe(403);
    expect((await rawPost(srv.url, INITIALIZE, { Origin: "http://localhost:1234" })).status).toBe(200);
    const port = new URL(srv.url).port;
    expect(await rawWithHost(srv.url, `evil.example:${port}`)).toBe(403);
    expect(await rawWithHost(srv.url, `localhost:${port}`)).toBe(200);
  });

  it("rejects an oversized body with 413, declared or streamed", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(9 << 20) },
    });
    expect((await rawPost(srv.url, huge)).status).toBe(413);
    const streamed = new ReadableStream({
      start(ctl) {
        for (let i = 0; i < 10; i++) ctl.enqueue(new TextEncoder().encode("x".repeat(1 << 20)));
        ctl.close();
      },
    });
    const res = await fetch(srv.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${srv.token}` },
      body: streamed,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("answers 404 off /mcp, 415 without JSON, 400 on bad JSON, 404 for an unknown session", async () => {
    expect((await rawPost(srv.url.replace("/mcp", "/other"), INITIALIZE)).status).toBe(404);
    expect((await rawPost(srv.url, INITIALIZE, { "Content-Type": "text/plain" })).status).toBe(415);
    expect((await rawPost(srv.url, "{not json")).status).toBe(400);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect((await rawPost(srv.url, ping, { "mcp-session-id": "no-such-session" })).status).toBe(404);
  });
});

describe("bearer token", () => {
  const token = "correct-horse-battery-staple-42";
  let guarded: HttpServerProcess;
  beforeAll(async () => {
    // 127.0.0.2 is loopback; the token is enforced whenever one is configured.
    guarded = await startHttpServer([root], { host: "127.0.0.2", env: { MCPFS_AUTH_TOKEN: token } });
  });
  afterAll(async () => {
    await guarded?.stop();
  });

  it("answers 401 with WWW-Authenticate without a token or with a wrong one", async () => {
    expect(guarded.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/mcp$/);
    const none = await rawPost(guarded.url, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="mcpfs"');
    const wrong = await rawPost(guarded.url, INITIALIZE, { Authorization: "Bearer nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it.each(["v1", "v2"] as const)("serves the %s client that sends the token", async (kind) => {
    const c = await connectHttp(guarded.url, { client: kind, token });
    try {
      expect((await c.call("list_allowed_directories")).text).toContain(root);
    } finally {
      await c.close();
    }
  });
});

describe("sessions", () => {
  it("20 concurrent 2025-era sessions each see only their own roots", async () => {
    const dirs = Array.from({ length: 20 }, (_, i) =>
      area.tree(`sessions/s${i}`, { "own.txt": `session ${i}\n` }),
    );
    // Over HTTP client roots narrow the command-line directory: each session to its own subdirectory.
    const shared = await startHttpServer([path.dirname(dirs[0]!)]);
    try {
      await Promise.all(
        dirs.map(async (dir, i) => {
          const c = await connectHttp(shared.url, { client: "v1", roots: [dir] });
          try {
            expect((await c.call("list_allowed_directories")).text, shared.stderr()).toBe(
              `Allowed directories:\n${dir}`,
            );
            expect((await c.call("read_text_file", { path: path.join(dir, "own.txt") })).text).toBe(
              `session ${i}\n`,
            );
            const other = dirs[(i + 1) % dirs.length]!;
            const r = await c.call("read_text_file", { path: path.join(other, "own.txt") });
            expect(r.isError).toBe(true);
            expect(r.text).not.toContain(dir);
            const { resources } = await c.client.listResources();
            expect(resources.map((x: { uri: string }) => x.uri)).toEqual([fileUri(dir)]);
          } finally {
            await c.close();
          }
        }),
      );
    } finally {
      await shared.stop();
    }
  });

  it("SIGTERM lets an in-flight call finish, then exits 0", async () => {
    // A slow grep (pure-TS engine, a Unicode-word pattern that never matches, ~5 MB of accented text)
    // keeps a call in flight; nothing else may block now that FIFOs are never opened blocking.
    const words = ["alpha", "béta", "gamma", "délta", "epsilon", "zeta", "thêta", "lambda", "omega", "sigma"];
    const line = Array.from({ length: 8 }, (_, i) => `${words[i]}${i * 7}`).join(" ");
    const block = `${Array.from({ length: 4000 }, () => line).join("\n")}\n`;
    const slowDir = area.tree(
      "slow-grep",
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, block])),
    );
    const s = await startHttpServer([slowDir], { env: { MCPFS_GREP_ENGINE: "js" } });
    const c = await connectHttp(s.url, { client: "v1" });
    // A raw tools/call in the session: its SSE response headers prove the server has the request.
    const res = await fetch(s.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${s.token}`,
        "mcp-session-id": c.sessionId!,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 99,
        method: "tools/call",
        params: { name: "grep", arguments: { path: slowDir, pattern: String.raw`\b\w+\d{3}\b` } },
      }),
    });
    expect(res.status, s.stderr()).toBe(200);
    const exit = s.stop("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    expect(s.proc.exitCode, s.stderr()).toBeNull();
    const body = await res.text();
    // The request was answered, not cut off.
    expect(body, s.stderr()).toContain('"id":99');
    expect(body, s.stderr()).toContain('"result"');
    expect(await exit, s.stderr()).toBe(0);
    expect(s.stderr()).toContain("SIGTERM: finishing in-flight requests");
    await c.client.close().catch(() => {});
  });
});
