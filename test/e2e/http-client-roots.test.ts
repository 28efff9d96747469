/**
 * Over HTTP any local process can be the client, so client roots only narrow the command-line directories:
 * `file:///` and a sibling directory are dropped (the session keeps the command line's directories), a
 * root inside a read-only directory stays read-only, and a server without directories refuses to start
 * unless --allow-client-roots and a token are given. Judged by effect: files outside stay unread and
 * unchanged. (stdio keeps the official semantics: test/roots.test.ts.)
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { connectHttp, type HttpServerProcess, startHttpServer } from "../helpers/http.js";
import { runCli } from "../helpers/server.js";

const area = tempArea("mcpfs-http-roots-");
const project = area.tree("project", {
  "p.txt": "project\n",
  "sub/s.txt": "sub\n",
  "ro/inner/r.txt": "ro\n",
});
const sibling = area.tree("sibling", { "secret.txt": "sibling secret\n" });
const roDir = path.join(project, "ro");
const roInner = path.join(roDir, "inner");
let server: HttpServerProcess;

beforeAll(async () => {
  server = await startHttpServer([project, "--read-only-dir", roDir]);
});
afterAll(async () => {
  await server?.stop();
  area.cleanup();
});

async function withSession<T>(
  roots: string[],
  fn: (c: Awaited<ReturnType<typeof connectHttp>>) => Promise<T>,
) {
  const c = await connectHttp(server.url, { client: "v1", roots });
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

describe("HTTP client roots narrow, never widen (2025-11-25 sessions)", () => {
  it.each([
    ["file:///", "/"],
    ["a sibling directory", sibling],
  ])(
    "a root of %s is dropped: nothing outside the command-line directories is read or written",
    async (_, root) => {
      await withSession([root], async (c) => {
        const read = await c.call("read_text_file", { path: path.join(sibling, "secret.txt") });
        expect(read.isError, read.text).toBe(true);
        expect(read.text).not.toContain("sibling secret");
        const write = await c.call("write_file", { path: path.join(sibling, "planted.txt"), content: "x" });
        expect(write.isError).toBe(true);
        const listed = await c.call("list_allowed_directories");
        expect(listed.text).toContain(project);
        expect(listed.text).not.toContain(sibling);
        // The command line's directory is still served.
        expect((await c.call("read_text_file", { path: path.join(project, "p.txt") })).text).toBe(
          "project\n",
        );
      });
      expect(fs.existsSync(path.join(sibling, "planted.txt"))).toBe(false);
      expect(fs.readFileSync(path.join(sibling, "secret.txt"), "utf8")).toBe("sibling secret\n");
      expect(server.stderr()).toContain("Dropping client root outside the server's directories");
    },
  );

  it("a root inside the command-line directory narrows the session to it", async () => {
    await withSession([path.join(project, "sub")], async (c) => {
      expect((await c.call("list_allowed_directories")).text).toContain(path.join(project, "sub"));
      expect((await c.call("read_text_file", { path: path.join(project, "sub", "s.txt") })).text).toBe(
        "sub\n",
      );
      const outside = await c.call("read_text_file", { path: path.join(project, "p.txt") });
      expect(outside.isError).toBe(true);
    });
  });

  it("a root inside a read-only directory stays read-only, whatever else the answer holds", async () => {
    await withSession([roInner, "/"], async (c) => {
      expect((await c.call("read_text_file", { path: path.join(roInner, "r.txt") })).text).toBe("ro\n");
      const w = await c.call("write_file", { path: path.join(roInner, "r.txt"), content: "changed" });
      expect(w.isError).toBe(true);
      const n = await c.call("write_file", { path: path.join(roInner, "new.txt"), content: "new" });
      expect(n.isError).toBe(true);
      expect((await c.call("read_text_file", { path: path.join(sibling, "secret.txt") })).isError).toBe(true);
    });
    expect(fs.readFileSync(path.join(roInner, "r.txt"), "utf8")).toBe("ro\n");
    expect(fs.existsSync(path.join(roInner, "new.txt"))).toBe(false);
  });

  it("a 2026-07-28 client (no roots) is served the command-line directories only", async () => {
    const c = await connectHttp(server.url, { client: "v2" });
    try {
      expect((await c.call("read_text_file", { path: path.join(project, "p.txt") })).text).toBe("project\n");
      expect((await c.call("read_text_file", { path: path.join(sibling, "secret.txt") })).isError).toBe(true);
    } finally {
      await c.close();
    }
  });
});

describe("HTTP without command-line directories", () => {
  it("refuses to start unless --allow-client-roots is given", async () => {
    const r = await runCli(["--http", "--host", "127.0.0.1", "--port", "0"], { timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--allow-client-roots");
    expect(r.stderr).not.toContain("listening on");
  });

  it("refuses --allow-client-roots without a bearer token", async () => {
    const r = await runCli(["--http", "--host", "127.0.0.1", "--port", "0", "--allow-client-roots"], {
      timeoutMs: 60_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/token/);
    expect(r.stderr).not.toContain("listening on");
  });

  it("with --allow-client-roots and a token, client roots choose the directories; 2026 clients get none", async () => {
    const token = "client-roots-token-0123456789";
    const s = await startHttpServer(["--allow-client-roots"], { env: { MCPFS_AUTH_TOKEN: token } });
    try {
      const c = await connectHttp(s.url, { client: "v1", roots: [sibling], token });
      try {
        const r = await c.call("read_text_file", { path: path.join(sibling, "secret.txt") });
        expect(r.text).toBe("sibling secret\n");
      } finally {
        await c.close();
      }
      const m = await connectHttp(s.url, { client: "v2", token });
      try {
        const r = await m.call("read_text_file", { path: path.join(sibling, "secret.txt") });
        expect(r.isError).toBe(true);
        expect(r.text).toContain("No allowed directories");
      } finally {
        await m.close();
      }
    } finally {
      await s.stop();
    }
  });
});
