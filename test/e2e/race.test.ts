/**
 * Check-then-open race, black-box: a separate process swaps paths inside the root between real entries and
 * symlinks to outside secrets (2,000 bounded iterations) while the MCP client keeps reading them through the
 * server. The descriptor verification (O_NOFOLLOW + /proc/self/fd + fstat identity) must let zero bytes of
 * the secrets out.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";
import { startSwapper } from "../helpers/swapper.js";

const ITERATIONS = 2000;
const area = tempArea("mcpfs-race-");
const SECRET = `RACE-CANARY-${process.pid}-${Date.now()}`;
const root = area.tree("root", { "target.txt": "SAFE\n", "d/secret.txt": "SAFE\n" });
const outside = area.tree("outside", { "secret.txt": `${SECRET}\n`, "dir/secret.txt": `${SECRET}\n` });

/**
 * The swapper: `target.txt` flips between a regular file and a symlink to the outside secret (atomic rename
 * over it, or unlink + symlink on odd turns); `d` flips between a real directory and a symlink to an outside
 * directory (two renames, so `d` is briefly missing too). Busy-waits a little in each state.
 */
const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [root, outside, n] = process.argv.slice(1);
const t = path.join(root, "target.txt"), d = path.join(root, "d");
const spin = (us) => { const end = process.hrtime.bigint() + BigInt(us) * 1000n; while (process.hrtime.bigint() < end); };
for (let i = 0; i < Number(n); i++) {
  const fileTmp = path.join(root, ".swap-file"), linkTmp = path.join(root, ".swap-link");
  fs.writeFileSync(fileTmp, "SAFE\\n");
  fs.symlinkSync(path.join(outside, "secret.txt"), linkTmp);
  fs.renameSync(linkTmp, t);
  fs.renameSync(path.join(root, "d"), path.join(root, ".d-real"));
  fs.symlinkSync(path.join(outside, "dir"), d);
  spin(300);
  if (i % 2) { fs.unlinkSync(t); fs.renameSync(fileTmp, t); }
  else fs.renameSync(fileTmp, t);
  fs.unlinkSync(d);
  fs.renameSync(path.join(root, ".d-real"), d);
  spin(300);
}
process.stdout.write(String(n));
`;

afterAll(() => area.cleanup());

describe("symlink swap race while reading", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it(`${ITERATIONS} swaps, concurrent reads through the server, zero leaks`, async () => {
    const swapper = startSwapper(SWAPPER, [root, outside, String(ITERATIONS)]);
    const stats = { reads: 0, safe: 0, refused: 0, leaks: 0 };
    const calls: [string, Record<string, unknown>][] = [
      ["read_text_file", { path: "target.txt" }],
      ["read_text_file", { path: "d/secret.txt" }],
      ["read_text_file", { path: path.join(root, "target.txt"), tail: 1 }],
      ["read_file", { path: "d/secret.txt", head: 1 }],
    ];
    const reader = async (k: number) => {
      let i = k;
      while (!swapper.done) {
        const [tool, args] = calls[i++ % calls.length]!;
        const r = await conn.call(tool, args);
        stats.reads++;
        if (JSON.stringify(r.raw).includes(SECRET)) stats.leaks++;
        else if (r.isError) stats.refused++;
        else if (r.text.startsWith("SAFE")) stats.safe++;
      }
    };
    await Promise.all([0, 1, 2, 3].map(reader));
    const { code, printed: iterations } = await swapper.finished;
    expect(code).toBe(0);
    expect(iterations).toBe(String(ITERATIONS));
    process.stderr.write(`[race] ${iterations} swap iterations; ${JSON.stringify(stats)}\n`);
    expect(stats.leaks).toBe(0);
    expect(stats.reads).toBeGreaterThan(0);
    // The secrets outside are untouched.
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe(`${SECRET}\n`);
  });
});
