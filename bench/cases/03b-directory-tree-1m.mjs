import fs from "node:fs";
import { makeMillionTree } from "../lib/million-tree.mjs";
import { isNum, measureTool, timeOf } from "../lib/tool.mjs";

/** Room for the whole tree's JSON (about 83 MiB): the row measures the complete tree, nothing cut. */
const WHOLE = String(512 * 2 ** 20);

export default {
  id: "directory_tree_1m",
  title: "directory_tree of 1,000,100 entries, whole (fixture made once, a few minutes)",
  async run(ctx) {
    const entries = makeMillionTree(ctx.fx.million, ctx.log);
    const dir = fs.realpathSync(ctx.fx.million);
    const opts = { runs: 1, warmup: 0, timeoutMs: 900_000 };
    const m = await measureTool(
      { bin: ctx.mcpfs, args: ["--max-output-bytes", WHOLE, dir], env: {} },
      "directory_tree",
      { path: dir },
      opts,
    );
    const o = await measureTool(
      { bin: ctx.official, args: [dir], env: {} },
      "directory_tree",
      { path: dir },
      opts,
    );
    const mc = timeOf(m);
    const oc = timeOf(o);
    const whole = m.structured?.totalEntries === entries && m.structured?.truncated === false;
    const same = m.text !== undefined && o.text !== undefined && m.text.length === o.text.length;
    return [
      {
        label: "directory_tree, 1M entries, whole",
        mcpfs: mc,
        official: oc,
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "≤ official; RSS < ½ official; the whole tree",
        met: isNum(mc) && isNum(oc) ? mc <= oc && m.hwm < o.hwm / 2 && whole && same : undefined,
        note: `${m.structured?.totalEntries ?? "–"} of ${entries} entries shown; reply ${m.text ? (m.text.length / 2 ** 20).toFixed(1) : "–"} MiB, official ${o.text ? (o.text.length / 2 ** 20).toFixed(1) : "–"} MiB`,
      },
    ];
  },
};
