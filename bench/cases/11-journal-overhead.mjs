import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum } from "../lib/tool.mjs";

const FILES = 5;
const CALLS = 20;
// ~40 KB of source-like text per file.
const BODY = Array.from({ length: 1000 }, (_, i) => `const line${i} = "${"x".repeat(24)}";`).join("\n");

/**
 * The change journal's cost on edit_files over 5 files: mcpfs with the journal (intent, pre-images, commit
 * record, each fsynced) against mcpfs --no-journal, on two copies of the same files, both servers connected
 * at once and batches alternating (as in calls_200, so neither pays the other's warm-up).
 */
export default {
  id: "journal_edit_files",
  title: `${CALLS} × edit_files over ${FILES} files, journal on vs --no-journal`,
  async run(ctx) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-journal-"));
    try {
      const sides = ["on", "off"].map((side) => {
        const dir = path.join(base, side);
        fs.mkdirSync(dir);
        for (let f = 0; f < FILES; f++) fs.writeFileSync(path.join(dir, `f${f}.ts`), `// v0\n${BODY}\n`);
        const args = side === "on" ? [dir] : ["--no-journal", dir];
        return { dir, args, env: { MCPFS_STATE_DIR: path.join(base, `state-${side}`) }, n: 0 };
      });
      const conns = [];
      try {
        for (const s of sides) conns.push(await connect(ctx.mcpfs, s.args, s.env));
        const batch = async (c, s) => {
          const t = performance.now();
          for (let i = 0; i < CALLS; i++) {
            const files = [];
            for (let f = 0; f < FILES; f++)
              files.push({
                path: path.join(s.dir, `f${f}.ts`),
                edits: [{ oldText: `// v${s.n}\n`, newText: `// v${s.n + 1}\n` }],
              });
            const r = await c.call("edit_files", { files });
            if (r.isError) throw new Error(`edit_files failed: ${r.text.slice(0, 200)}`);
            s.n++;
          }
          return performance.now() - t;
        };
        for (const [k, c] of conns.entries()) await batch(c, sides[k]);
        const samples = conns.map(() => []);
        for (let i = 0; i < ctx.runs; i++)
          for (const [k, c] of conns.entries()) samples[k].push(await batch(c, sides[k]));
        const [on, off] = samples.map(median);
        const journaled = fs.existsSync(path.join(base, "state-on", "journal"));
        return [
          {
            label: `${CALLS} × edit_files, ${FILES} files of 40 KB (journal on; OS column: --no-journal)`,
            mcpfs: on,
            official: "n/a",
            os: off,
            osLabel: "--no-journal",
            rssMcpfs: conns[0].mem().hwm,
            target: "≤ 1.25× --no-journal",
            met: isNum(on) && isNum(off) && journaled ? on <= 1.25 * off : undefined,
            note: `per call: ${(on / CALLS).toFixed(2)} ms vs ${(off / CALLS).toFixed(2)} ms (+${((on - off) / CALLS).toFixed(2)} ms)${journaled ? "" : "; journal NOT written"}`,
          },
        ];
      } finally {
        await Promise.all(conns.map((c) => c.close()));
      }
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  },
};
