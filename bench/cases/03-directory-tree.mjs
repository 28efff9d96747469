import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

const BUDGET = 256 * 1024;

export default {
  id: "directory_tree",
  title: "directory_tree of the whole tree",
  async run(ctx) {
    const dir = ctx.fx.tree;
    const s = servers(ctx, dir);
    const prune = ["node_modules", ".git", "dist", "tmp", "coverage"].flatMap((n) => [
      "-name",
      n,
      "-prune",
      "-o",
    ]);
    const findArgs = [".", ...prune, "-print"];
    const alongside = ctx.find ? () => commandOnce(ctx.find, findArgs, { cwd: dir }) : undefined;
    const m = await measureTool(s.mcpfs, "directory_tree", { path: dir }, { runs: ctx.runs, alongside });
    const o = await measureTool(
      s.official,
      "directory_tree",
      { path: dir },
      { runs: 2, warmup: 1, timeoutMs: 300_000 },
    );
    // find over the entries mcpfs shows (what .gitignore leaves): the ignored directories pruned.
    const f = ctx.find ? timeCommand(ctx.find, findArgs, 1, { cwd: dir }) : undefined;
    if (f && m.alongsideMs !== undefined) f.ms = m.alongsideMs;
    const mc = timeOf(m);
    const oc = timeOf(o);
    const replyOk = m.text !== undefined && Buffer.byteLength(m.text) <= BUDGET;
    return [
      {
        label: "directory_tree, whole tree",
        mcpfs: mc,
        official: oc,
        os: f?.ms,
        osLabel: "find (ignored dirs pruned)",
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "≥ 5× official; ≤ 2× find; reply ≤ 256 KiB; RSS ≤ ⅓ official",
        met:
          isNum(mc) && isNum(oc) && isNum(f?.ms)
            ? oc / mc >= 5 && mc / f.ms <= 2 && replyOk && m.hwm <= o.hwm / 3
            : undefined,
        note: `reply text: mcpfs ${m.text ? (Buffer.byteLength(m.text) / 1024).toFixed(0) : "–"} KiB, official ${o.text ? (Buffer.byteLength(o.text) / 2 ** 20).toFixed(1) : "–"} MiB (wire ${o.wire ? (o.wire / 2 ** 20).toFixed(1) : "–"} MiB); find lists ${f ? f.out.toString().split("\n").length - 1 : "–"} entries`,
      },
    ];
  },
};
