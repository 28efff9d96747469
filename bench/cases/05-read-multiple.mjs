import fs from "node:fs";
import path from "node:path";
import { timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

export default {
  id: "read_multiple",
  title: "read_multiple_files of 1,000 files",
  async run(ctx) {
    const dir = ctx.fx.many;
    const paths = fs
      .readdirSync(dir)
      .sort()
      .slice(0, 1000)
      .map((f) => path.join(dir, f));
    const s = servers(ctx, dir);
    const m = await measureTool(s.mcpfs, "read_multiple_files", { paths }, { runs: ctx.runs });
    const o = await measureTool(s.official, "read_multiple_files", { paths }, { runs: ctx.runs });
    const cat = timeCommand("cat", paths, ctx.runs);
    const mc = timeOf(m);
    const oc = timeOf(o);
    return [
      {
        label: "read_multiple_files, 1,000 × 4 KB",
        mcpfs: mc,
        official: oc,
        os: cat.ms,
        osLabel: "cat",
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "no slower than official",
        met: isNum(mc) && isNum(oc) ? mc <= oc * 1.1 : undefined,
        note: `reply text: mcpfs ${m.text ? (Buffer.byteLength(m.text) / 1024).toFixed(0) : "–"} KiB (budgeted), official ${o.text ? (Buffer.byteLength(o.text) / 1024).toFixed(0) : "–"} KiB; "no slower" allows 10% noise`,
      },
    ];
  },
};
