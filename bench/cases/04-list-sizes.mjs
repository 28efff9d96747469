import { timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

export default {
  id: "list_sizes",
  title: "list_directory_with_sizes on a 20,000-entry folder",
  async run(ctx) {
    const dir = ctx.fx.wide;
    const s = servers(ctx, dir);
    const m = await measureTool(s.mcpfs, "list_directory_with_sizes", { path: dir }, { runs: ctx.runs });
    const o = await measureTool(s.official, "list_directory_with_sizes", { path: dir }, { runs: ctx.runs });
    const ls = timeCommand("ls", ["-l", dir], ctx.runs);
    const mc = timeOf(m);
    const oc = timeOf(o);
    return [
      {
        label: "list_directory_with_sizes, 20k entries",
        mcpfs: mc,
        official: oc,
        os: ls.ms,
        osLabel: "ls -l",
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "≥ 2× official",
        met: isNum(mc) && isNum(oc) ? oc / mc >= 2 : undefined,
      },
    ];
  },
};
