import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { servers } from "../lib/tool.mjs";

async function coldStarts(server, runs) {
  const samples = [];
  let hwm;
  for (let i = 0; i <= runs; i++) {
    const c = await connect(server.bin, server.args, server.env);
    if (i > 0) samples.push(c.startMs);
    hwm = c.mem().hwm;
    await c.close();
  }
  return { ms: median(samples), hwm };
}

export default {
  id: "cold_start",
  title: "cold start (spawn → tools/list answered)",
  async run(ctx) {
    const s = servers(ctx, ctx.fx.many);
    // Interleaved so load spikes hit both alike.
    const a = [];
    const b = [];
    let ha;
    let hb;
    for (let i = 0; i < ctx.runs; i++) {
      const m = await coldStarts(s.mcpfs, 1);
      const o = await coldStarts(s.official, 1);
      a.push(m.ms);
      b.push(o.ms);
      ha = m.hwm;
      hb = o.hwm;
    }
    const mcpfs = median(a);
    const official = median(b);
    return [
      {
        label: "cold start (spawn → tools/list)",
        mcpfs,
        official,
        rssMcpfs: ha,
        rssOfficial: hb,
        target: "≤ 0.7× official",
        met: mcpfs <= 0.7 * official,
        note: `mcpfs ÷ official = ${(mcpfs / official).toFixed(2)}`,
      },
    ];
  },
};
