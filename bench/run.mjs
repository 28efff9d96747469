// npm run bench: mcpfs vs the official filesystem server vs OS tools, side by side on the same fixtures.
// Usage: node bench/run.mjs [--only id,id] [--runs N] [--mcpfs path/to/mcpfs.js (another build, e.g. an older one)]
//        node bench/run.mjs --scale [--sizes 10000,100000,1000000] [--official-1m]  (see bench/scale.mjs)
// Cases are the modules in bench/cases/ (run in file-name order); add one by dropping a module there.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_NODE } from "./lib/client.mjs";
import { ensureFixtures } from "./lib/fixtures.mjs";
import { formatTable, verdictLine } from "./lib/report.mjs";
import { HitSetMismatch } from "./lib/verify.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const serverNodeVersion = execFileSync(SERVER_NODE, ["-v"], { encoding: "utf8" }).trim();
const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};
if (argv.includes("--scale")) {
  const { runScale } = await import("./scale.mjs");
  process.exit(await runScale(argv));
}
const only = opt("--only")?.split(",");
const runs = Number(opt("--runs") ?? 5);

async function ripgrep() {
  try {
    const { rgPath } = await import("@vscode/ripgrep");
    fs.accessSync(rgPath, fs.constants.X_OK);
    return rgPath;
  } catch {
    return undefined;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {}
  }
  return undefined;
}

const log = (...a) => console.error(...a);
const started = Date.now();
const fx = ensureFixtures(path.join(here, "fixtures"), log);
const ctx = {
  fx,
  runs,
  log,
  mcpfs: path.resolve(opt("--mcpfs") ?? path.join(repo, "dist/bundle/mcpfs.js")),
  official: path.join(repo, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
  rg: await ripgrep(),
  find: which("find"),
};

const files = fs
  .readdirSync(path.join(here, "cases"))
  .filter((f) => f.endsWith(".mjs"))
  .sort();
const rows = [];
for (const f of files) {
  const mod = (await import(path.join(here, "cases", f))).default;
  if (only && !only.includes(mod.id)) continue;
  log(`▶ ${mod.id}: ${mod.title}`);
  const t = Date.now();
  try {
    for (const row of await mod.run(ctx)) {
      rows.push({ id: mod.id, ...row });
      log(`  ${verdictLine(row)}`);
    }
  } catch (err) {
    rows.push({ id: mod.id, label: mod.title, error: String(err?.stack ?? err).split("\n")[0] });
    log(`  error: ${err?.stack ?? err}`);
    if (err instanceof HitSetMismatch) log(`\n  ✘✘✘ ${err.message}\n`);
  }
  log(`  (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const header =
  `mcpfs bench — ${new Date().toISOString().slice(0, 10)} — ${os.cpus().length} × ${cpu}, ` +
  `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${serverNodeVersion}, ${os.type()} ${os.release()}; ` +
  `load average at start ${os.loadavg()[0].toFixed(1)}; median of ${runs} runs after a warm-up ` +
  `(official heavy cases: fewer, see notes); total ${((Date.now() - started) / 1000).toFixed(0)} s`;
const table = formatTable(rows);
console.log(`${header}\n\n${table}`);
fs.mkdirSync(path.join(here, "results"), { recursive: true });
fs.writeFileSync(path.join(here, "results", "latest.md"), `${header}\n\n${table}\n`);
fs.writeFileSync(path.join(here, "results", "latest.json"), JSON.stringify({ header, rows }, null, 2));
const failed = rows.filter((r) => r.error);
if (failed.length > 0) {
  // A wrong answer (a hit set unlike the OS tool's) or a broken case fails the bench, whatever the timings.
  log(`\n✘ ${failed.length} case(s) failed: ${failed.map((r) => r.label).join("; ")}`);
  process.exitCode = 1;
}
