import { commandOnce, timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";
import { checkHits, HitSetMismatch, relLines, treePaths } from "../lib/verify.mjs";

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
    // What .gitignore leaves, by find: the ignored folders pruned, the ignored names dropped.
    const keep = [...findArgs.slice(0, -1), "!", "-name", "*.log", "!", "-name", "*.local", "-print"];
    const hitNote = ctx.find
      ? checkTree("directory_tree (monorepo)", m, timeCommand(ctx.find, keep, 0, { cwd: dir }).out, dir)
      : "";
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
        note: `reply text: mcpfs ${m.text ? (Buffer.byteLength(m.text) / 1024).toFixed(0) : "–"} KiB, official ${o.text ? (Buffer.byteLength(o.text) / 2 ** 20).toFixed(1) : "–"} MiB (wire ${o.wire ? (o.wire / 2 ** 20).toFixed(1) : "–"} MiB); find lists ${f ? f.out.toString().split("\n").length - 1 : "–"} entries; ${hitNote}`,
      },
      ...(await folderHeavy(ctx)),
    ];
  },
};

/** Shown entries ⊂ find's, all of them when the reply says it is whole; the walk's total = find's count. */
function checkTree(label, m, findOut, dir) {
  const theirs = relLines(findOut, dir);
  const json = m.blocks?.[0]?.text ?? m.text ?? "[]";
  const note = checkHits(label, treePaths(JSON.parse(json)), theirs, {
    truncated: m.structured?.truncated === true,
  });
  if (m.structured?.totalEntries !== theirs.length)
    throw new HitSetMismatch(
      `HIT SET MISMATCH in ${label}: the walk counted ${m.structured?.totalEntries} entries, find ${theirs.length}`,
    );
  return `${note}; total ${theirs.length} = find's`;
}

/** The folder-heavy fixture (folders before files); its a-gen/ folders and *.log files are gitignored. */
async function folderHeavy(ctx) {
  if (!ctx.find) return [];
  const dir = ctx.fx.folders;
  const findArgs = [".", "-name", "a-gen", "-prune", "-o", "!", "-name", "*.log", "-print"];
  const alongside = () => commandOnce(ctx.find, findArgs, { cwd: dir });
  const s = servers(ctx, dir);
  const m = await measureTool(s.mcpfs, "directory_tree", { path: dir }, { runs: ctx.runs, alongside });
  const o = await measureTool(
    s.official,
    "directory_tree",
    { path: dir },
    { runs: 2, warmup: 1, timeoutMs: 300_000 },
  );
  const f = timeCommand(ctx.find, findArgs, 1, { cwd: dir });
  const note = checkTree("directory_tree (folder-heavy)", m, f.out, dir);
  const mc = timeOf(m);
  const os = m.alongsideMs ?? f.ms;
  return [
    {
      label: "directory_tree, folder-heavy 20k-file tree",
      mcpfs: mc,
      official: timeOf(o),
      os,
      osLabel: "find (a-gen pruned)",
      rssMcpfs: m.hwm,
      rssOfficial: o.hwm,
      target: "≤ 2× find; entries = find's",
      met: isNum(mc) && isNum(os) ? mc / os <= 2 : undefined,
      note,
    },
  ];
}
