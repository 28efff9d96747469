import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";
import { checkHits, relLines } from "../lib/verify.mjs";

export default {
  id: "search_ts",
  title: 'search_files "**/*.ts" over the whole tree',
  async run(ctx) {
    const dir = ctx.fx.tree;
    const s = servers(ctx, dir);
    const params = { path: dir, pattern: "**/*.ts" };
    const rgArgs = ["--files", "--hidden", "--no-require-git", "-g", "*.ts", "-g", "!.git", "."];
    const alongside = ctx.rg ? () => commandOnce(ctx.rg, rgArgs, { cwd: dir }) : undefined;
    const m = await measureTool(s.mcpfs, "search_files", params, { runs: ctx.runs, alongside });
    const o = await measureTool(s.official, "search_files", params, {
      runs: 2,
      warmup: 0,
      timeoutMs: 300_000,
    });
    let os;
    let rgCount;
    if (ctx.rg) {
      const r = timeCommand(ctx.rg, rgArgs, 1, { cwd: dir });
      os = m.alongsideMs ?? r.ms;
      rgCount = r.out.toString().split("\n").filter(Boolean).length;
    }
    const mc = timeOf(m);
    const oc = timeOf(o);
    const count = (t) => (t ? t.split("\n").filter((l) => l.startsWith("/")).length : 0);
    const hitNote = ctx.rg
      ? checkHits(
          "search_files **/*.ts (monorepo)",
          m.structured?.matches ?? [],
          relLines(timeCommand(ctx.rg, rgArgs, 0, { cwd: dir }).out, dir),
          {
            truncated: m.structured?.truncated === true,
          },
        )
      : "no rg to compare with";
    return [
      {
        label: 'search_files "**/*.ts", 100k-file tree',
        mcpfs: mc,
        official: oc,
        os,
        osLabel: "rg --files -g '*.ts'",
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "≥ 30× official; ≤ 1.5× rg",
        met: isNum(mc) && isNum(oc) && isNum(os) ? oc / mc >= 30 && mc / os <= 1.5 : undefined,
        note: `hits: mcpfs ${count(m.text)}${m.text?.includes("truncated") ? " (truncated)" : ""}, official ${count(o.text)}, rg ${rgCount ?? "–"}; ${hitNote}; official runs: 2`,
      },
      ...(await folderHeavy(ctx)),
    ];
  },
};

/** The folder-heavy fixture: a whole-tree pattern whose hits fit the reply, compared with rg's list. */
async function folderHeavy(ctx) {
  const dir = ctx.fx.folders;
  const params = { path: dir, pattern: "**/a-dir-3/*.ts" };
  const rgArgs = ["--files", "--hidden", "--no-require-git", "-g", "**/a-dir-3/*.ts", "-g", "!.git", "."];
  const alongside = ctx.rg ? () => commandOnce(ctx.rg, rgArgs, { cwd: dir }) : undefined;
  const s = servers(ctx, dir);
  const m = await measureTool(s.mcpfs, "search_files", params, { runs: ctx.runs, alongside });
  const o = await measureTool(s.official, "search_files", params, { runs: 2, warmup: 0, timeoutMs: 300_000 });
  if (!ctx.rg) return [];
  const r = timeCommand(ctx.rg, rgArgs, 1, { cwd: dir });
  const note = checkHits(
    "search_files **/a-dir-3/*.ts (folder-heavy)",
    m.structured?.matches ?? [],
    relLines(r.out, dir),
    {
      truncated: m.structured?.truncated === true,
    },
  );
  const mc = timeOf(m);
  const os = m.alongsideMs ?? r.ms;
  return [
    {
      label: 'search_files "**/a-dir-3/*.ts", folder-heavy 20k-file tree',
      mcpfs: mc,
      official: timeOf(o),
      os,
      osLabel: "rg --files -g",
      rssMcpfs: m.hwm,
      rssOfficial: o.hwm,
      target: "≤ 1.5× rg; hits = rg's",
      met: isNum(mc) && isNum(os) ? mc / os <= 1.5 : undefined,
      note,
    },
  ];
}
