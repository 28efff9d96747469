import { NEEDLE } from "../lib/fixtures.mjs";
import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";
import { checkHits, rgKeys } from "../lib/verify.mjs";

export default {
  id: "workspace_search",
  title: "workspace surface: search_files content search over the tree",
  async run(ctx) {
    const dir = ctx.fx.tree;
    const rgArgs = ["-n", "--hidden", "--no-require-git", "-g", "!.git", NEEDLE, "."];
    const alongside = ctx.rg ? () => commandOnce(ctx.rg, rgArgs, { cwd: dir }) : undefined;
    const m = await measureTool(
      servers(ctx, dir).workspace,
      "search_files",
      { pattern: NEEDLE },
      {
        runs: ctx.runs,
        alongside,
      },
    );
    const rg = m.alongsideMs ?? (ctx.rg ? timeCommand(ctx.rg, rgArgs, 1, { cwd: dir }).ms : undefined);
    const mc = timeOf(m);
    let note = "no rg to compare with";
    if (ctx.rg) {
      const reply = JSON.parse(m.blocks?.[0]?.text ?? "{}");
      const mine = (reply.details ?? []).map((d) => `${d.file}:${d.line}`);
      const theirs = rgKeys(timeCommand(ctx.rg, rgArgs, 0, { cwd: dir }).out, dir);
      note = checkHits("workspace search_files (monorepo)", mine, theirs, {
        truncated: reply.truncated === true,
      });
    }
    return [
      {
        label: "workspace search_files pattern, whole tree",
        mcpfs: mc,
        official: "n/a",
        os: rg,
        osLabel: "rg",
        rssMcpfs: m.hwm,
        target: "≤ 2× rg",
        met: isNum(mc) && isNum(rg) ? mc / rg <= 2 : undefined,
        note,
      },
    ];
  },
};
