/**
 * grep opens each file through the same verified open as reads: while a separate process swaps a folder
 * inside the root for a symlink to an outside folder (and back), grep must never return a line of the
 * outside file (O_NOFOLLOW alone guards only the last path component; ripgrep opens by path, so what it
 * found is read again through the verified open).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";
import { startSwapper } from "../helpers/swapper.js";

const ITERATIONS = 1500;
const area = tempArea("mcpfs-grep-race-");
const SECRET = `GREP-CANARY-${process.pid}-${Date.now()}`;
const root = area.tree("root", { "d/secret.txt": "GREP-CANARY-SAFE\n", "keep.txt": "GREP-CANARY-SAFE\n" });
const outside = area.tree("outside", { "dir/secret.txt": `${SECRET}\n` });

/** `d` flips between the real folder and a symlink to the outside folder, busy-waiting in each state. */
const SWAPPER = `
const fs = require("node:fs"), path = require("node:path");
const [root, outside, n] = process.argv.slice(1);
const d = path.join(root, "d"), real = path.join(root, ".d-real");
const spin = (us) => { const end = process.hrtime.bigint() + BigInt(us) * 1000n; while (process.hrtime.bigint() < end); };
for (let i = 0; i < Number(n); i++) {
  fs.renameSync(d, real);
  fs.symlinkSync(path.join(outside, "dir"), d);
  spin(400);
  fs.unlinkSync(d);
  fs.renameSync(real, d);
  spin(200);
}
process.stdout.write(String(n));
`;

afterAll(() => area.cleanup());

describe.each(["js", "rg"])("grep (%s engine) during a folder-for-symlink swap", (engine) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root], { env: { MCPFS_GREP_ENGINE: engine } });
  });
  afterAll(() => conn.close());

  it(`${ITERATIONS} swaps, concurrent greps, zero leaks`, async () => {
    const swapper = startSwapper(SWAPPER, [root, outside, String(ITERATIONS)]);
    const stats = { greps: 0, leaks: 0 };
    const calls: Record<string, unknown>[] = [
      { pattern: "GREP-CANARY", path: root },
      { pattern: "GREP-CANARY", path: path.join(root, "d/secret.txt") },
      { pattern: "GREP-CANARY", path: root, filesOnly: true, literal: true },
    ];
    const worker = async (k: number) => {
      let i = k;
      while (!swapper.done) {
        const r = await conn.call("grep", calls[i++ % calls.length]!);
        stats.greps++;
        if (JSON.stringify(r.raw).includes(SECRET)) stats.leaks++;
      }
    };
    await Promise.all([0, 1, 2, 3].map(worker));
    const { code, printed } = await swapper.finished;
    expect(code).toBe(0);
    expect(printed).toBe(String(ITERATIONS));
    process.stderr.write(`[grep-race] ${printed} swaps; ${JSON.stringify(stats)}\n`);
    expect(stats.greps).toBeGreaterThan(0);
    expect(stats.leaks).toBe(0);
    expect(fs.readFileSync(path.join(outside, "dir/secret.txt"), "utf8")).toBe(`${SECRET}\n`);
  });
});
