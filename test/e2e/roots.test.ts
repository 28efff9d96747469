/**
 * MCP roots, black-box: client roots replace the command-line directories, list_changed re-requests and
 * replaces, a stale answer is discarded, calls wait for a fetch in flight, a client without roots keeps the
 * command-line directories, and with no directories at all every tool says how to provide them.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { benignValue } from "../helpers/hostile.js";
import { type Connection, serverPool } from "../helpers/server.js";

const area = tempArea("mcpfs-roots-");
const cliDir = area.tree("cli", { "c.txt": "from cli\n" });
const dirA = area.tree("a", { "f.txt": "from A\n" });
const dirB = area.tree("b", { "f.txt": "from B\n" });
const roDir = area.tree("ro", { "r.txt": "read-only\n" });
const aFile = area.tree("not-a-dir-parent", { "file.txt": "x" });
afterAll(() => area.cleanup());

const start = serverPool();

/**
 * The server's stderr once it holds `text` (log lines may arrive after the reply they belong to), or after
 * 100 s: just inside the test's own timeout, so a failure shows the log (no shorter clock on a loaded machine).
 */
async function logged(conn: Connection, text: string): Promise<string> {
  for (let i = 0; i < 2000 && !conn.stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
  return conn.stderr();
}

async function allowed(conn: Connection): Promise<string> {
  const r = await conn.call("list_allowed_directories");
  expect(r.isError).toBe(false);
  return r.text;
}

/** Valid arguments for any tool, so the call reaches the server's gate rather than schema validation. */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema from tools/list
function benignArgs(schema: any): Record<string, unknown> {
  return benignValue(schema, "") as Record<string, unknown>;
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("client roots (2025-11-25, v1 client)", () => {
  it("replace the command-line directories", async () => {
    const conn = await start([cliDir], { roots: [dirA] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirA}`);
    expect((await conn.call("read_text_file", { path: path.join(dirA, "f.txt") })).text).toBe("from A\n");
    const denied = await conn.call("read_text_file", { path: path.join(cliDir, "c.txt") });
    expect(denied.isError).toBe(true);
    expect(denied.text).toMatch(/^Access denied/);
    expect(await logged(conn, "Updated allowed directories from MCP roots: 1 valid directories")).toContain(
      "Updated allowed directories from MCP roots: 1 valid directories",
    );
  });

  it("are re-requested and replaced on notifications/roots/list_changed", async () => {
    const conn = await start([cliDir], { roots: [dirA] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirA}`);
    await conn.setRoots([dirB]);
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirB}`);
    expect((await conn.call("read_text_file", { path: "f.txt" })).text).toBe("from B\n");
    expect((await conn.call("read_text_file", { path: path.join(dirA, "f.txt") })).isError).toBe(true);
  });

  it("make tool calls wait for a roots fetch in flight", async () => {
    const conn = await start([cliDir], { roots: [dirA], rootsDelayMs: 700 });
    // Sent at once: without the barrier this would be checked against the command-line directory.
    const r = await conn.call("read_text_file", { path: path.join(dirA, "f.txt") });
    expect(r).toMatchObject({ isError: false, text: "from A\n" });
    const c = await conn.call("read_text_file", { path: path.join(cliDir, "c.txt") });
    expect(c.isError).toBe(true);
  });

  it("discard a stale answer overtaken by a newer request", async () => {
    const firstAsked = deferred<void>();
    const releaseFirst = deferred<void>();
    const conn = await start([cliDir], {
      rootsHandler: async (n) => {
        if (n === 0) {
          firstAsked.resolve();
          await releaseFirst.promise;
          return [dirA];
        }
        return [dirB];
      },
    });
    await firstAsked.promise;
    // The roots change while the first answer is still on its way: that answer is stale.
    await conn.client.sendRootsListChanged();
    const call = conn.call("read_text_file", { path: path.join(dirA, "f.txt") });
    releaseFirst.resolve();
    const r = await call;
    expect(r.isError).toBe(true);
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirB}`);
    expect(
      await logged(conn, "Discarded a stale roots/list answer: a newer roots update has started"),
    ).toContain("Discarded a stale roots/list answer: a newer roots update has started");
  });

  it("skip invalid roots and keep the valid ones", async () => {
    const conn = await start([cliDir], {
      roots: [path.join(area.base, "missing"), path.join(aFile, "file.txt"), dirB],
    });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirB}`);
    expect(await logged(conn, "Skipping invalid directory")).toContain("Skipping invalid directory");
  });

  it("that are all invalid keep the command-line directories", async () => {
    const conn = await start([cliDir], { roots: [path.join(area.base, "missing")] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${cliDir}`);
    expect(await logged(conn, "No valid root directories provided by client")).toContain(
      "No valid root directories provided by client",
    );
  });

  it("once in force, revoke access when the client exposes no root any more", async () => {
    const conn = await start([cliDir], { roots: [dirA] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirA}`);
    await conn.setRoots([]);
    const r = await conn.call("read_text_file", { path: path.join(dirA, "f.txt") });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("No allowed directories available");
    expect(await logged(conn, "access revoked until it exposes a root again")).toContain(
      "access revoked until it exposes a root again",
    );
  });

  it("keep --read-only-dir directories, read-only", async () => {
    const conn = await start([cliDir, "--read-only-dir", roDir], { roots: [dirA] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirA}\n${roDir} (read-only)`);
    expect((await conn.call("read_text_file", { path: path.join(roDir, "r.txt") })).text).toBe("read-only\n");
  });

  it("inside a --read-only-dir are read-only", async () => {
    const nested = area.tree("ro/nested");
    const conn = await start(["--read-only-dir", roDir], { roots: [nested] });
    const r = await conn.call("list_allowed_directories");
    expect(r.structured?.directories).toEqual([
      { path: nested, realPath: nested, readOnly: true },
      { path: roDir, realPath: roDir, readOnly: true },
    ]);
  });

  it("inside a --read-only-dir given through a symlink are read-only too", async () => {
    const nested = area.tree("ro/nested2");
    const link = path.join(area.base, "ro-link");
    fs.symlinkSync(roDir, link);
    const conn = await start(["--read-only-dir", link], { roots: [nested] });
    const r = await conn.call("list_allowed_directories");
    expect(r.structured?.directories).toEqual([
      { path: nested, realPath: nested, readOnly: true },
      { path: link, realPath: roDir, readOnly: true },
    ]);
  });

  it("a client without roots keeps the command-line directories", async () => {
    const conn = await start([cliDir]);
    expect(await allowed(conn)).toBe(`Allowed directories:\n${cliDir}`);
    expect((await conn.call("read_text_file", { path: "c.txt" })).text).toBe("from cli\n");
    expect(await logged(conn, "Client does not support MCP Roots")).toContain(
      "Client does not support MCP Roots",
    );
  });
});

describe("no directories at all", () => {
  it("every tool returns the clear error (2025-11-25 wording)", async () => {
    const conn = await start([]);
    const { tools } = await conn.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    for (const t of tools) {
      const r = await conn.call(t.name, benignArgs(t.inputSchema));
      expect(r.isError, t.name).toBe(true);
      expect(r.text).toContain("Server cannot operate: No allowed directories available.");
      expect(r.text).toContain("start the server with directory arguments (mcpfs DIR [DIR...])");
      expect(r.text).toContain("MCP roots");
    }
  });

  it("a roots client that offers none gets the same error", async () => {
    const conn = await start([], { roots: [] });
    const r = await conn.call("read_text_file", { path: "x.txt" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Server cannot operate: No allowed directories available.");
  });

  it("on 2026-07-28 the error names the command-line way", async () => {
    const conn = await start([], { client: "v2" });
    const { tools } = await conn.client.listTools();
    for (const t of tools) {
      const r = await conn.call(t.name, benignArgs(t.inputSchema));
      expect(r.isError, t.name).toBe(true);
      expect(r.text).toContain(
        "on protocol version 2026-07-28 the client cannot provide them through MCP Roots",
      );
      expect(r.text).toContain("as command-line arguments: mcpfs DIR [DIR...]");
    }
  });

  it("a roots client can still provide them later", async () => {
    const conn = await start([], { roots: [dirA] });
    expect(await allowed(conn)).toBe(`Allowed directories:\n${dirA}`);
  });
});
