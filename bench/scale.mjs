// npm run bench -- --scale: growth with size. Builds folder-heavy trees of 10k / 100k / 1M files (the shape
// of bench/lib/folder-tree.mjs, once, cached in bench/fixtures/scale-N) and prints, at each size, time, peak
// RSS and the ratio to the OS floor for directory_tree, search_files and grep, each hit set checked against
// the OS tool's. The official server is measured at every size but 1M (130 s there; add --official-1m).
// Options: --sizes 10000,100000 (default 10000,100000,1000000), --runs N (default 3; 1 at 1M),
// --dir DIR (where the trees live; default bench/fixtures — 1M files take ~4.5 GB and a minute or two to make).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FOLDER_NEEDLE, makeFolderTree } from "./lib/folder-tree.mjs";
import { timeCommand } from "./lib/measure.mjs";
import { measureTool, timeOf } from "./lib/tool.mjs";
import { checkHits, grepKeys, HitSetMismatch, relLines, rgKeys, treePaths } from "./lib/verify.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const log = (...a) => console.error(...a);

const ms = (v) =>
  typeof v !== "number" ? String(v ?? "–") : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`;
const x = (a, b) =>
  typeof a === "number" && typeof b === "number" && b > 0 ? `${(a / b).toFixed(2)}×` : "–";
const mib = (v) => (typeof v === "number" && !Number.isNaN(v) ? v.toFixed(0) : "–");

export async function runScale(argv) {
  const opt = (name) => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const sizes = (opt("--sizes") ?? "10000,100000,1000000").split(",").map(Number);
  const runs = Number(opt("--runs") ?? 3);
  const { rgPath: rg } = await import("@vscode/ripgrep");
  const mcpfs = path.join(repo, "dist/bundle/mcpfs.js");
  const official = path.join(repo, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
  const rows = [];
  let failed = 0;
  const started = Date.now();
  for (const size of sizes) {
    const t0 = Date.now();
    const made = path.join(opt("--dir") ?? path.join(here, "fixtures"), `scale-${size}`);
    const entries = makeFolderTree(made, size);
    const dir = fs.realpathSync(made);
    log(`▶ ${size} files, ${entries} entries (tree ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    const n = size >= 1_000_000 ? 1 : runs;
    const withOfficial = size < 1_000_000 || argv.includes("--official-1m");
    const opts = { runs: n, warmup: 1, timeoutMs: 900_000 };
    const server = (bin, env = {}) => ({ bin, args: [dir], env });
    const cases = [
      {
        tool: "directory_tree",
        params: { path: dir },
        os: ["find", [".", "-name", "a-gen", "-prune", "-o", "!", "-name", "*.log", "-print"]],
        check(m, out) {
          const theirs = relLines(out, dir);
          const note = checkHits(
            `directory_tree ${size}`,
            treePaths(JSON.parse(m.blocks?.[0]?.text ?? "[]")),
            theirs,
            {
              truncated: m.structured?.truncated === true,
            },
          );
          if (m.structured?.totalEntries !== theirs.length)
            throw new HitSetMismatch(
              `HIT SET MISMATCH in directory_tree ${size}: the walk counted ${m.structured?.totalEntries}, find ${theirs.length}`,
            );
          return `${note}; total = find's ${theirs.length}`;
        },
      },
      {
        tool: "search_files",
        // Every folder walked, few enough hits to fit the reply: the complete search.
        params: { path: dir, pattern: "**/a-mod-3/z-index.ts" },
        os: [
          rg,
          ["--files", "--hidden", "--no-require-git", "-g", "!.git", "-g", "**/a-mod-3/z-index.ts", "."],
        ],
        check: (m, out) =>
          checkHits(`search_files ${size}`, m.structured?.matches ?? [], relLines(out, dir), {
            truncated: m.structured?.truncated === true,
          }),
      },
      {
        tool: "grep",
        params: { path: dir, pattern: FOLDER_NEEDLE, literal: true, maxResults: 100_000 },
        os: [rg, ["-F", "-n", "--hidden", "--no-require-git", "-g", "!.git", FOLDER_NEEDLE, "."]],
        check: (m, out) =>
          checkHits(`grep ${size}`, grepKeys(m.text, dir), rgKeys(out, dir), {
            truncated: m.structured?.truncated === true,
          }),
      },
    ];
    for (const c of cases) {
      const floor = timeCommand(c.os[0], c.os[1], n, { cwd: dir });
      const m = await measureTool(server(mcpfs), c.tool, c.params, opts);
      const o =
        withOfficial && c.tool !== "grep"
          ? await measureTool(server(official), c.tool, c.params, { ...opts, runs: 1, warmup: 0 })
          : undefined;
      let note;
      try {
        note = m.error ? `error: ${m.error}` : c.check(m, floor.out);
      } catch (err) {
        if (!(err instanceof HitSetMismatch)) throw err;
        failed++;
        note = err.message;
        log(`\n  ✘✘✘ ${err.message}\n`);
      }
      const row = {
        size,
        tool: c.tool,
        mcpfs: timeOf(m),
        floor: floor.ms,
        floorLabel: path.basename(c.os[0]),
        rss: m.hwm,
        official: o ? timeOf(o) : "not run",
        rssOfficial: o?.hwm,
        note,
      };
      rows.push(row);
      log(
        `  ${c.tool}: mcpfs ${ms(row.mcpfs)} (${x(row.mcpfs, row.floor)} ${row.floorLabel} ${ms(row.floor)}), RSS ${mib(row.rss)} MiB; official ${ms(row.official)}, RSS ${mib(row.rssOfficial)} MiB; ${note}`,
      );
    }
  }
  const header =
    `mcpfs scale bench — ${new Date().toISOString().slice(0, 10)} — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ` +
    `load average at end ${os.loadavg()[0].toFixed(1)}; median of ${runs} runs (1 at 1M) after a warm-up; ` +
    `total ${((Date.now() - started) / 1000).toFixed(0)} s`;
  const table = [
    "| files | tool | mcpfs | OS floor | mcpfs ÷ floor | peak RSS MiB mcpfs / official | official | hit set |",
    "|---:|---|---:|---|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.size.toLocaleString("en-US")} | ${r.tool} | ${ms(r.mcpfs)} | ${r.floorLabel}: ${ms(r.floor)} | ${x(r.mcpfs, r.floor)} | ${mib(r.rss)} / ${mib(r.rssOfficial)} | ${ms(r.official)} | ${String(r.note).replaceAll("|", "\\|")} |`,
    ),
  ].join("\n");
  console.log(`${header}\n\n${table}`);
  fs.mkdirSync(path.join(here, "results"), { recursive: true });
  fs.writeFileSync(path.join(here, "results", "scale.md"), `${header}\n\n${table}\n`);
  if (failed > 0) log(`\n✘ ${failed} hit-set mismatch(es)`);
  return failed > 0 ? 1 : 0;
}
