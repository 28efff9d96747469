import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { servers } from "../lib/tool.mjs";

/** One discarded start (it may write mcpfs's code cache), then one measured. */
async function coldStart(server) {
  let sample;
  for (let i = 0; i <= 1; i++) {
    const c = await connect(server.bin, server.args, server.env);
    sample = { answered: c.startMs, listed: c.listedMs, hwm: c.mem().hwm };
    await c.close();
  }
  return sample;
}

export default {
  id: "cold_start",
  title: "cold start (spawn → tools/list answered)",
  async run(ctx) {
    const s = servers(ctx, ctx.fx.many);
    // Interleaved so load spikes hit both alike.
    const m = [];
    const o = [];
    for (let i = 0; i < ctx.runs; i++) {
      m.push(await coldStart(s.mcpfs));
      o.push(await coldStart(s.official));
    }
    const med = (xs, k) => median(xs.map((x) => x[k]));
    const mcpfs = med(m, "answered");
    const official = med(o, "answered");
    const listedM = med(m, "listed");
    const listedO = med(o, "listed");
    return [
      {
        label: "cold start (spawn → tools/list answer received)",
        mcpfs,
        official,
        rssMcpfs: m.at(-1)?.hwm,
        rssOfficial: o.at(-1)?.hwm,
        target: "≤ 0.7× official",
        met: mcpfs <= 0.7 * official,
        note:
          `mcpfs ÷ official = ${(mcpfs / official).toFixed(2)}; until the SDK client has also validated the ` +
          `list and compiled its output-schema validators (21 richer schemas vs 14): ` +
          `${listedM.toFixed(0)} vs ${listedO.toFixed(0)} ms = ${(listedM / listedO).toFixed(2)}`,
      },
    ];
  },
};
