import { timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";
import { checkHits, HitSetMismatch } from "../lib/verify.mjs";

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
    // ls -A lists the same folder: the shown names are its, and the totals count all of them.
    const names = timeCommand("ls", ["-A", dir], 0).out.toString().split("\n").filter(Boolean);
    const st = m.structured ?? {};
    const shown = (st.entries ?? []).map((e) => e.name);
    const note = checkHits("list_directory_with_sizes (20k folder)", shown, names, {
      truncated: st.truncated === true,
    });
    const counted = (st.totalFiles ?? 0) + (st.totalDirectories ?? 0) + (st.totalLinks ?? 0);
    if (counted !== names.length)
      throw new HitSetMismatch(
        `HIT SET MISMATCH in list_directory_with_sizes: totals count ${counted} entries, ls -A ${names.length}`,
      );
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
        note: `${note}; totals = ls -A's ${names.length}`,
      },
    ];
  },
};
