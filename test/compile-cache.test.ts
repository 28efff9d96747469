/**
 * The executable runs the bundle through a V8 code cache kept in the user's cache directory
 * (scripts/loader.mjs). Black-box: real starts of the built server with MCPFS_CACHE_DIR pointing at a temp
 * directory. A cache that V8 accepts is left alone; one it rejects, or one that is not safely ours, is
 * replaced — so an unchanged file after a start means it was used.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "./helpers/fixtures.js";
import { startServer } from "./helpers/server.js";

const area = tempArea("mcpfs-ccache-");
const root = area.tree("root", { "a.txt": "a\n" });
afterAll(() => area.cleanup());

async function cacheFiles(dir: string, timeoutMs = 15_000): Promise<string[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".bin")) : [];
    if (files.length > 0 || Date.now() > end) return files.map((f) => path.join(dir, f));
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the server, lists its tools, calls one, and stops it. */
async function run(env: Record<string, string>, keepMs = 0): Promise<string[]> {
  const conn = await startServer([root], { env: { MCPFS_GREP_ENGINE: "rg", ...env } });
  try {
    const { tools } = await conn.client.listTools();
    const r = await conn.call("read_text_file", { path: path.join(root, "a.txt") });
    expect(r.text).toBe("a\n");
    // ripgrep is an external package reached by dynamic import, which must work from cached code too.
    const g = await conn.call("grep", { path: root, pattern: "a" });
    expect(g.isError).toBe(false);
    expect(g.text).toContain("a.txt");
    if (keepMs > 0) await new Promise((r) => setTimeout(r, keepMs));
    return tools.map((t: { name: string }) => t.name);
  } finally {
    await conn.close();
  }
}

describe("V8 code cache of the bundled executable", () => {
  it("is written owner-only after the first start and reused unchanged by the next", async () => {
    const dir = area.tree("cache1");
    const names = await run({ MCPFS_CACHE_DIR: dir });
    const [file] = await cacheFiles(dir);
    expect(file).toBeDefined();
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    const before = fs.readFileSync(file!);
    const mtime = fs.statSync(file!).mtimeMs;
    expect(await run({ MCPFS_CACHE_DIR: dir }, 300)).toEqual(names);
    expect(fs.statSync(file!).mtimeMs).toBe(mtime);
    expect(fs.readFileSync(file!).equals(before)).toBe(true);
  });

  it("a corrupt cache is rejected and replaced; the server starts normally", async () => {
    const dir = area.tree("cache2");
    await run({ MCPFS_CACHE_DIR: dir });
    const [file] = await cacheFiles(dir);
    fs.writeFileSync(file!, Buffer.alloc(4096, 7), { mode: 0o600 });
    await run({ MCPFS_CACHE_DIR: dir }, 300);
    const deadline = Date.now() + 15_000;
    while (fs.readFileSync(file!)[0] === 7 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(fs.readFileSync(file!)[0]).not.toBe(7);
  });

  it("a cache file others may write is never loaded: it is replaced by an owner-only one", async () => {
    const dir = area.tree("cache3");
    await run({ MCPFS_CACHE_DIR: dir });
    const [file] = await cacheFiles(dir);
    fs.chmodSync(file!, 0o666);
    await run({ MCPFS_CACHE_DIR: dir }, 300);
    const deadline = Date.now() + 15_000;
    while ((fs.statSync(file!).mode & 0o777) !== 0o600 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
  });

  it("MCPFS_NO_COMPILE_CACHE=1 writes nothing", async () => {
    const dir = area.tree("cache4");
    await run({ MCPFS_CACHE_DIR: dir, MCPFS_NO_COMPILE_CACHE: "1" }, 300);
    expect(await cacheFiles(dir, 1500)).toEqual([]);
  });
});
