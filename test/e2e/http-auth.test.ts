/**
 * HTTP authenticates by default (issue 27, item 7): without --auth-token/MCPFS_AUTH_TOKEN the server
 * generates a token, keeps it owner-only in the state directory and says on stderr how to pass it; only
 * --no-auth serves without one. One client program that leaks sessions cannot lock the others out.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import {
  connectHttp,
  type HttpServerProcess,
  INITIALIZE,
  rawPost,
  startHttpServer,
} from "../helpers/http.js";

const area = tempArea("mcpfs-http-auth-");
const root = area.tree("root", { "a.txt": "alpha\n" });
const servers: HttpServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  area.cleanup();
});

async function start(args: string[], state: string): Promise<HttpServerProcess> {
  const s = await startHttpServer(args, { token: false, env: { MCPFS_STATE_DIR: state } });
  servers.push(s);
  return s;
}

describe("without a token given", () => {
  it("refuses requests without the generated token, which is kept owner-only and named on stderr", async () => {
    const state = path.join(area.base, "state-a");
    const s = await start([root], state);
    expect((await rawPost(s.url, INITIALIZE)).status).toBe(401);
    const file = path.join(state, "http-token");
    const token = fs.readFileSync(file, "utf8").trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    if (process.platform !== "win32") expect(fs.statSync(file).mode & 0o077).toBe(0);
    expect(s.stderr()).toContain("Authorization: Bearer");
    expect(s.stderr()).toContain(file);
    expect(s.stderr()).not.toContain(token);
    expect((await rawPost(s.url, INITIALIZE, { Authorization: "Bearer wrong" })).status).toBe(401);
    const c = await connectHttp(s.url, { client: "v1", token });
    expect((await c.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe("alpha\n");
    await c.close();
    // A restart keeps the token, so configured clients keep working.
    const again = await start([root], state);
    const c2 = await connectHttp(again.url, { client: "v2", token });
    expect((await c2.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe("alpha\n");
    await c2.close();
  });

  it("serves without a token only with --no-auth (and refuses --no-auth with a token)", async () => {
    const s = await start([root, "--no-auth"], path.join(area.base, "state-b"));
    expect((await rawPost(s.url, INITIALIZE)).status).toBe(200);
    expect(fs.existsSync(path.join(area.base, "state-b", "http-token"))).toBe(false);
    await expect(
      startHttpServer([root, "--no-auth"], { env: { MCPFS_AUTH_TOKEN: "a-long-enough-secret-token" } }),
    ).rejects.toThrow(/contradicts/);
  });
});

describe("sessions per client", () => {
  it("a client that opens 1,000 sessions does not lock the others out", async () => {
    const s = await startHttpServer([root]);
    servers.push(s);
    const flood = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "flood", version: "1" },
      },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 1000; i += 50)
      statuses.push(
        ...(await Promise.all(Array.from({ length: 50 }, async () => (await rawPost(s.url, flood)).status))),
      );
    // The flooding client keeps working too: its own oldest idle sessions make room.
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
    const c = await connectHttp(s.url, { client: "v1" });
    expect((await c.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe("alpha\n");
    await c.close();
  }, 180_000);
});
