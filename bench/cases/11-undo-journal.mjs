import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum } from "../lib/tool.mjs";

// 10 MB (decimal): the SDK's stdio reader takes messages up to 10 MiB, JSON framing included.
// Lines of 100 bytes: a JSON-escaped newline costs 2 bytes on the wire.
const BIG = Buffer.alloc(10_000_000, `${"0123456789".repeat(9)}abcdefghi\n`).toString();
const LINES = Array.from({ length: 20_000 }, (_, i) => `line ${i}: ${"y".repeat(40)}`).join("\n");
const SMALL_WRITES = 200;
const TREE_FILES = 10_000;

/**
 * The undo journal's cost (every mutating call keeps its pre-images): mcpfs with the journal against
 * mcpfs --no-journal, both connected at once, samples alternating. Then a recursive delete of a
 * 10,000-file tree, which the journal turns into one rename (against --no-journal's 10,000 unlinks, the
 * delete of the build before the undo journal).
 */
export default {
  id: "undo_journal",
  title:
    "undo journal overhead: write 10 MB, edit a 20,000-line file, 200 small writes, delete a 10,000-file tree",
  async run(ctx) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-undo-"));
    const sides = ["on", "off"].map((side) => {
      const dir = path.join(base, side);
      fs.mkdirSync(dir);
      const args = side === "on" ? [dir] : ["--no-journal", dir];
      return { side, dir, args, env: { MCPFS_STATE_DIR: path.join(base, `state-${side}`) } };
    });
    const conns = [];
    try {
      for (const s of sides) conns.push(await connect(ctx.mcpfs, s.args, s.env));
      const call = async (c, tool, args) => {
        const r = await c.call(tool, args);
        if (r.isError) throw new Error(`${tool} failed: ${r.text.slice(0, 200)}`);
        return r;
      };
      /** Median ms of `once(conn, side, i)` per side, alternating sides, after one warm-up each. */
      const compare = async (once, runs = ctx.runs) => {
        const samples = sides.map(() => []);
        for (let i = -1; i < runs; i++)
          for (const [k, c] of conns.entries()) {
            const t = await once(c, sides[k], i, () => performance.now());
            if (i >= 0) samples[k].push(t);
          }
        return samples.map(median);
      };
      const timed = async (fn) => {
        const t = performance.now();
        await fn();
        return performance.now() - t;
      };
      const row = (label, on, off, target, limit) => ({
        label,
        mcpfs: on,
        official: "n/a",
        os: off,
        osLabel: "--no-journal",
        target,
        met: isNum(on) && isNum(off) ? on <= limit * off : undefined,
        note: `${(on / off).toFixed(2)}× (${on.toFixed(1)} ms vs ${off.toFixed(1)} ms)`,
      });
      const rows = [];

      // One call per sample, its time mostly the disk's (an fsync of 10 MB): three times the samples, so the
      // median measures the journal's share rather than the disk's jitter.
      const oneCallRuns = ctx.runs * 3;
      for (const s of sides) fs.writeFileSync(path.join(s.dir, "big.txt"), BIG);
      const [w10On, w10Off] = await compare(
        (c, s, i) =>
          timed(() => call(c, "write_file", { path: path.join(s.dir, "big.txt"), content: `${i}${BIG}` })),
        oneCallRuns,
      );
      rows.push(row("write_file 10 MB over an existing file", w10On, w10Off, "≤ 1.10× --no-journal", 1.1));

      for (const s of sides) fs.writeFileSync(path.join(s.dir, "lines.txt"), `v0\n${LINES}\n`);
      const [edOn, edOff] = await compare(
        (c, s, i) =>
          timed(() =>
            call(c, "edit_file", {
              path: path.join(s.dir, "lines.txt"),
              edits: [{ oldText: `v${i + 1}\n`, newText: `v${i + 2}\n` }],
            }),
          ),
        oneCallRuns,
      );
      rows.push(row("edit_file of a 20,000-line file", edOn, edOff, "≤ 1.10× --no-journal", 1.1));

      const [smOn, smOff] = await compare((c, s, i) =>
        timed(async () => {
          for (let k = 0; k < SMALL_WRITES; k++)
            await call(c, "write_file", {
              path: path.join(s.dir, `small${k % 20}.txt`),
              content: `${i} ${k}\n`,
            });
        }),
      );
      rows.push(row(`${SMALL_WRITES} sequential small writes`, smOn, smOff, "≤ 1.10× --no-journal", 1.1));

      // One fresh tree per sample (a delete consumes it), built outside the timing.
      const makeTree = (dir) => {
        for (let d = 0; d < 100; d++) {
          const sub = path.join(dir, `d${d}`);
          fs.mkdirSync(sub, { recursive: true });
          for (let f = 0; f < TREE_FILES / 100; f++) fs.writeFileSync(path.join(sub, `f${f}.txt`), "x\n");
        }
      };
      const [delOn, delOff] = await compare(
        (c, s, i) => {
          const tree = path.join(s.dir, `tree${i + 1}`);
          makeTree(tree);
          return timed(() => call(c, "delete_directory", { path: tree, recursive: true }));
        },
        Math.min(ctx.runs, 3),
      );
      rows.push({
        ...row(
          `delete_directory of a ${TREE_FILES}-file tree (recursive)`,
          delOn,
          delOff,
          "< --no-journal",
          1,
        ),
        met: isNum(delOn) && isNum(delOff) ? delOn < delOff : undefined,
      });
      const journaled = fs.existsSync(path.join(base, "state-on", "journal"));
      if (!journaled) for (const r of rows) r.note += "; journal NOT written";
      return rows;
    } finally {
      await Promise.all(conns.map((c) => c.close()));
      fs.rmSync(base, { recursive: true, force: true });
    }
  },
};
