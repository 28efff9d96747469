import path from "node:path";
import { NEEDLE } from "../lib/fixtures.mjs";
import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

export default {
  id: "grep",
  title: "grep: a literal in ~1% of files; a catastrophic regex",
  async run(ctx) {
    const dir = ctx.fx.tree;
    const params = { path: dir, pattern: NEEDLE, literal: true, maxResults: 10_000 };
    const rgArgs = ["-F", "-n", "--hidden", "--no-require-git", "-g", "!.git", NEEDLE, "."];
    const alongside = ctx.rg ? () => commandOnce(ctx.rg, rgArgs, { cwd: dir }) : undefined;
    const m = await measureTool(servers(ctx, dir).mcpfs, "grep", params, { runs: ctx.runs, alongside });
    const js = await measureTool(servers(ctx, dir, { MCPFS_GREP_ENGINE: "js" }).mcpfs, "grep", params, {
      runs: Math.min(ctx.runs, 3),
    });
    let rg;
    let rgHits;
    if (ctx.rg) {
      const r = timeCommand(ctx.rg, rgArgs, 1, { cwd: dir });
      rg = m.alongsideMs ?? r.ms;
      rgHits = r.out.toString().split("\n").filter(Boolean).length;
    }
    const hits = (t) => (t ? t.split("\n").filter((l) => l.includes(`: // ${NEEDLE}`)).length : "–");
    const mc = timeOf(m);
    const rows = [
      {
        label: "grep literal (~1% of files), whole tree",
        mcpfs: mc,
        official: "n/a",
        os: rg,
        osLabel: "rg -F",
        rssMcpfs: m.hwm,
        target: "≤ 1.5× rg",
        met: isNum(mc) && isNum(rg) ? mc / rg <= 1.5 : undefined,
        note: `hits: mcpfs ${hits(m.text)}, rg ${rgHits ?? "–"}; official has no content search`,
      },
      {
        label: "grep literal, pure-TS engine (MCPFS_GREP_ENGINE=js)",
        mcpfs: timeOf(js),
        official: "n/a",
        os: rg,
        osLabel: "rg -F",
        rssMcpfs: js.hwm,
        note: `fallback when ripgrep is absent; hits ${hits(js.text)}`,
      },
    ];
    for (const engine of ["rg", "js"]) {
      const redos = ctx.fx.redos;
      const r = await measureTool(
        servers(ctx, redos, { MCPFS_GREP_ENGINE: engine }).mcpfs,
        "grep",
        { path: path.join(redos, "aaa.txt"), pattern: "(a+)+$" },
        { runs: 3 },
      );
      const t = timeOf(r);
      rows.push({
        label: `grep "(a+)+$" on a 50,000-char line (${engine} engine)`,
        mcpfs: t,
        official: "n/a",
        rssMcpfs: r.hwm,
        target: "< 2 s",
        met: isNum(t) ? t < 2000 : undefined,
      });
    }
    return rows;
  },
};
