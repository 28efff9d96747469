import fs from "node:fs";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum, servers } from "../lib/tool.mjs";

/**
 * Both servers connected at once, each warmed by one batch, then measured batches alternate between them:
 * the bench's own SDK client warms up (JIT) during the first few hundred calls, and measuring one server
 * entirely before the other would charge that warm-up to whichever goes first.
 */
async function batches(servers, files, runs) {
  const conns = [];
  try {
    for (const s of servers) conns.push(await connect(s.bin, s.args, s.env));
    const once = async (c) => {
      const t = performance.now();
      for (const f of files) await c.call("get_file_info", { path: f });
      return performance.now() - t;
    };
    for (const c of conns) if (c.has("get_file_info")) await once(c);
    const samples = conns.map(() => []);
    for (let i = 0; i < runs; i++)
      for (const [k, c] of conns.entries()) if (c.has("get_file_info")) samples[k].push(await once(c));
    return conns.map((c, k) =>
      c.has("get_file_info") ? { ms: median(samples[k]), hwm: c.mem().hwm } : { na: true },
    );
  } finally {
    await Promise.all(conns.map((c) => c.close()));
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
    const [m, o] = await batches([s.mcpfs, s.official], files, ctx.runs);
    const rate = (x) => (x.na ? "n/a" : isNum(x.ms) ? (200 / x.ms) * 1000 : undefined);
    const mr = rate(m);
    const or = rate(o);
    return [
      {
        label: "200 × get_file_info (one batch; batches alternate between the servers)",
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
