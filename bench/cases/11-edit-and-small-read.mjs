import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum, servers } from "../lib/tool.mjs";

const LINES = 20_000;

/** Each server gets its own copy, in its own directory, of a 20,000-line file and a 1.5 KB file. */
function makeFiles(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const big = path.join(dir, "edit-me.ts");
  const body = Array.from(
    { length: LINES },
    (_, i) => `export const value${i + 1} = ${i + 1}; // line ${i + 1}`,
  );
  fs.writeFileSync(big, `${body.join("\n")}\n`);
  const small = path.join(dir, "small.ts");
  fs.writeFileSync(small, `${"const greeting = 'hello world'; // a short line of code\n".repeat(27)}`);
  return { big, small };
}

/**
 * Both servers connected at once; calls alternate between them (one call each, in turn), so both see the
 * same machine load and the bench client's own warm-up is shared. Each edit is a real change: line 10,000
 * flips between two values, so every call rewrites the file (temp + fsync + rename on mcpfs).
 */
async function alternate(conns, calls, runs) {
  const samples = conns.map(() => []);
  for (let i = 0; i < runs + 3; i++)
    for (const [k, c] of conns.entries()) {
      const [tool, params] = calls[k](i);
      const r = await c.call(tool, params);
      if (r.isError) throw new Error(`${tool}: ${r.text.slice(0, 200)}`);
      if (i >= 3) samples[k].push(r.ms);
    }
  return samples.map((s) => median(s));
}

export default {
  id: "edit_read",
  title: "edit_file of one line in a 20,000-line file; read_text_file of a 1.5 KB file",
  async run(ctx) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-edit-"));
    try {
      const dirs = ["mcpfs", "official"].map((n) => path.join(base, n));
      const files = dirs.map(makeFiles);
      const conns = [];
      try {
        conns.push(await connect(...Object.values(servers(ctx, dirs[0]).mcpfs)));
        conns.push(await connect(...Object.values(servers(ctx, dirs[1]).official)));
        const edit = (k) => (i) => {
          const [from, to] = i % 2 === 0 ? ["= 10000;", "= -10000;"] : ["= -10000;", "= 10000;"];
          return [
            "edit_file",
            { path: files[k].big, edits: [{ oldText: `value10000 ${from}`, newText: `value10000 ${to}` }] },
          ];
        };
        const read = (k) => () => ["read_text_file", { path: files[k].small }];
        const runs = Math.max(ctx.runs * 6, 20);
        const [me, oe] = await alternate(conns, [edit(0), edit(1)], runs);
        const [mr, or] = await alternate(conns, [read(0), read(1)], runs * 5);
        const row = (label, m, o) => ({
          label,
          mcpfs: m,
          official: o,
          rssMcpfs: conns[0].mem().hwm,
          rssOfficial: conns[1].mem().hwm,
          target: "≤ 1.0× official",
          met: isNum(m) && isNum(o) ? m <= o : undefined,
          note: "median per call; calls alternate between the servers",
        });
        return [
          row(
            `edit_file, one line of a ${LINES.toLocaleString("en")}-line file (mcpfs: temp + fsync + rename)`,
            me,
            oe,
          ),
          row("read_text_file of a 1.5 KB file", mr, or),
        ];
      } finally {
        await Promise.all(conns.map((c) => c.close()));
      }
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  },
};
