import path from "node:path";
import { NEEDLE } from "../lib/fixtures.mjs";
import { FOLDER_NEEDLE } from "../lib/folder-tree.mjs";
import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";
import { checkHits, grepKeys, rgKeys } from "../lib/verify.mjs";

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
    let same = "";
    let sameJs = "";
    if (ctx.rg) {
      const r = timeCommand(ctx.rg, rgArgs, 1, { cwd: dir });
      rg = m.alongsideMs ?? r.ms;
      rgHits = r.out.toString().split("\n").filter(Boolean).length;
      const theirs = rgKeys(r.out, dir);
      same = checkHits("grep literal (monorepo)", grepKeys(m.text, dir), theirs, {
        truncated: m.structured?.truncated === true,
      });
      sameJs = checkHits("grep literal, js engine (monorepo)", grepKeys(js.text, dir), theirs, {
        truncated: js.structured?.truncated === true,
      });
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
        note: `hits: mcpfs ${hits(m.text)}, rg ${rgHits ?? "–"}; ${same}; official has no content search`,
      },
      {
        label: "grep literal, pure-TS engine (MCPFS_GREP_ENGINE=js)",
        mcpfs: timeOf(js),
        official: "n/a",
        os: rg,
        osLabel: "rg -F",
        rssMcpfs: js.hwm,
        note: `fallback when ripgrep is absent; hits ${hits(js.text)}; ${sameJs}`,
      },
      ...(await folderHeavy(ctx)),
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

/**
 * The folder-heavy fixture, each engine choice, and one module of it (100 files: small enough that the auto
 * engine searches it in process rather than starting rg): the (file, line) set must be rg's every time.
 */
async function folderHeavy(ctx) {
  if (!ctx.rg) return [];
  const rows = [];
  const module = path.join(ctx.fx.folders, "pkg-0000", "a-mod-3");
  for (const [engine, dir, what] of [
    ["auto", ctx.fx.folders, "folder-heavy 20k-file tree"],
    ["js", ctx.fx.folders, "folder-heavy 20k-file tree"],
    ["auto", module, "one 100-file module of it (in-process scope)"],
  ]) {
    const params = { path: dir, pattern: FOLDER_NEEDLE, literal: true, maxResults: 10_000 };
    const rgArgs = ["-F", "-n", "--hidden", "--no-require-git", "-g", "!.git", FOLDER_NEEDLE, "."];
    const r = timeCommand(ctx.rg, rgArgs, 1, { cwd: dir });
    const env = engine === "auto" ? {} : { MCPFS_GREP_ENGINE: engine };
    const alongside = () => commandOnce(ctx.rg, rgArgs, { cwd: dir });
    // The server's root is the fixture, so the rules above the module apply, as they do for rg.
    const m = await measureTool(servers(ctx, ctx.fx.folders, env).mcpfs, "grep", params, {
      runs: ctx.runs,
      alongside,
    });
    const note = checkHits(
      `grep literal, ${what} (${engine} engine)`,
      grepKeys(m.text, dir),
      rgKeys(r.out, dir),
      {
        truncated: m.structured?.truncated === true,
      },
    );
    const mc = timeOf(m);
    const os = m.alongsideMs ?? r.ms;
    const timed = engine === "auto" && dir === ctx.fx.folders;
    rows.push({
      label: `grep literal, ${what} (${engine} engine)`,
      mcpfs: mc,
      official: "n/a",
      os,
      osLabel: "rg -F",
      rssMcpfs: m.hwm,
      target: timed ? "≤ 1.5× rg; hits = rg's" : "hits = rg's",
      met: timed && isNum(mc) && isNum(os) ? mc / os <= 1.5 : undefined,
      note,
    });
  }
  return rows;
}
