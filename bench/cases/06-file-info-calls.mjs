import fs from "node:fs";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum, servers } from "../lib/tool.mjs";

async function batch(server, files, runs) {
  const c = await connect(server.bin, server.args, server.env);
  try {
    if (!c.has("get_file_info")) return { na: true };
    const once = async () => {
      const t = performance.now();
      for (const f of files) await c.call("get_file_info", { path: f });
      return performance.now() - t;
    };
    await once();
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await once());
    return { ms: median(samples), hwm: c.mem().hwm };
  } finally {
    await c.close();
  }
}

export default {
  id: "calls_200",
  title: "200 sequential get_file_info calls",
  async run(ctx) {
    const dir = ctx.fx.many;
    const files = fs
      .readdirSync(dir)
      .sort()
      .slice(0, 200)
      .map((f) => path.join(dir, f));
    const s = servers(ctx, dir);
    const m = await batch(s.mcpfs, files, ctx.runs);
    const o = await batch(s.official, files, ctx.runs);
    const rate = (x) => (x.na ? "n/a" : isNum(x.ms) ? (200 / x.ms) * 1000 : undefined);
    const mr = rate(m);
    const or = rate(o);
    return [
      {
        label: "200 × get_file_info (one batch)",
        mcpfs: m.na ? "n/a" : m.ms,
        official: o.na ? "n/a" : o.ms,
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "≥ 1.5× official calls/s",
        met: isNum(mr) && isNum(or) ? mr >= 1.5 * or : undefined,
        note: `calls/s: mcpfs ${isNum(mr) ? mr.toFixed(0) : mr}, official ${isNum(or) ? or.toFixed(0) : or}`,
      },
    ];
  },
};
