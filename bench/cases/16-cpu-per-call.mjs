import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connect, SERVER_NODE } from "../lib/client.mjs";
import { cpuNs } from "../lib/cpu-ns.mjs";
import { NOOP_TEXT } from "../lib/floor/info-text.mjs";
import { median } from "../lib/measure.mjs";
import { isNum } from "../lib/tool.mjs";

/** Calls per measured batch (the "200 small calls"), and calls each server gets before measuring. */
const BATCH = 200;
const WARM = 600;

/**
 * A small project as an agent meets it: a 1.5 KB source file at the top and one in a folder, a folder of 20
 * small files, a `.gitignore` and a `.git/info/exclude` (the workspace surface reads both on every path it
 * gates).
 */
function makeProject(dir) {
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.mkdirSync(path.join(dir, ".git", "info"), { recursive: true });
  fs.writeFileSync(path.join(dir, "small.ts"), NOOP_TEXT);
  fs.writeFileSync(path.join(dir, "src", "small.ts"), NOOP_TEXT);
  for (let i = 0; i < 20; i++)
    fs.writeFileSync(path.join(dir, "src", `file-${i}.ts`), `export const n = ${i};\n`);
  const ignored = [
    "node_modules/",
    "dist/",
    "*.log",
    "coverage/",
    ".env",
    "!.env.example",
    "build/",
    "*.tmp",
  ];
  fs.writeFileSync(path.join(dir, ".gitignore"), `${ignored.join("\n")}\n`);
  fs.writeFileSync(
    path.join(dir, ".git", "info", "exclude"),
    "# git ls-files --others --exclude-from=.git/info/exclude\n",
  );
}

const floorDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "lib", "floor");

/**
 * Each pair's servers are connected at once and warmed (the JIT settles over the first few hundred calls),
 * then measured batches alternate between them, so both see the same machine load. A batch's cost is the
 * server process's CPU time over it — the sum of its threads' scheduler run time (cpu-ns.mjs: the thread
 * pool that runs the fs calls included, ns exact) — divided by its calls; the row shows the median batch.
 * Client wall times of every measured call give the latency p99. On a loaded machine CPU time still swings
 * (caches and cores are shared): MCPFS_BENCH_CALLGRIND=1 counts instructions instead (see `instructions`).
 */
async function measurePair(specs, runs) {
  if (process.env.MCPFS_BENCH_CALLGRIND) return Promise.all(specs.map(instructions));
  const conns = [];
  try {
    for (const s of specs) conns.push(await connect(s.bin, s.args, {}));
    for (const [k, c] of conns.entries()) for (let i = 0; i < WARM; i++) await c.call(...specs[k].call);
    const cpu = conns.map(() => []);
    const wall = conns.map(() => []);
    for (let r = 0; r < runs; r++)
      for (const [k, c] of conns.entries()) {
        const before = cpuNs(c.pid) ?? c.cpu() * 1e6;
        for (let i = 0; i < BATCH; i++) {
          const reply = await c.call(...specs[k].call);
          if (reply.isError) throw new Error(`${specs[k].call[0]}: ${reply.text.slice(0, 200)}`);
          wall[k].push(reply.ms);
        }
        const after = cpuNs(c.pid) ?? c.cpu() * 1e6;
        cpu[k].push((after - before) / BATCH / 1e6);
      }
    return conns.map((c, k) => ({ cpu: median(cpu[k]), p99: p99(wall[k]), hwm: c.mem().hwm }));
  } finally {
    await Promise.all(conns.map((c) => c.close()));
  }
}

/**
 * Under callgrind: calls before the count (JIT and heap settle) and counted calls (several GC cycles);
 * MCPFS_BENCH_CALLGRIND=warm,calls sets others.
 */
const [CG_WARM, CG_CALLS] = /^\d+,\d+$/.test(process.env.MCPFS_BENCH_CALLGRIND ?? "")
  ? process.env.MCPFS_BENCH_CALLGRIND.split(",").map(Number)
  : [1500, 500];

/**
 * The server's instructions per call, load-independent: run under `valgrind --tool=callgrind` (user space
 * only: the kernel's side of each system call is not counted), zeroed after CG_WARM calls and dumped after
 * CG_CALLS more. `cpu` holds millions of instructions per call over all threads; `main` the main thread's
 * alone, where the JavaScript of the call runs (the other threads are the fs pool and V8's, whose
 * optimizing compiles still land in the window hundreds of calls in, and swing). Minutes per server.
 */
async function instructions(spec) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-cg-")), "callgrind.out");
  const vg = [
    `--tool=callgrind`,
    `--callgrind-out-file=${out}`,
    "--dump-instr=no",
    "--separate-threads=yes",
    SERVER_NODE,
  ];
  const c = await connect(vg[0], [...vg.slice(1), spec.bin, ...spec.args], {}, "valgrind", 600_000);
  try {
    for (let i = 0; i < CG_WARM; i++) await c.call(...spec.call, 600_000);
    execFileSync("callgrind_control", ["--zero", String(c.pid)], { stdio: "ignore" });
    for (let i = 0; i < CG_CALLS; i++) await c.call(...spec.call, 600_000);
    execFileSync("callgrind_control", ["--dump", String(c.pid)], { stdio: "ignore" });
    // One dump file per thread: callgrind.out.1-01 is the main thread.
    const dir = path.dirname(out);
    const counts = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith("callgrind.out.1-"))
      .map((f) => {
        const summary = /^summary:\s+(\d+)/m.exec(fs.readFileSync(path.join(dir, f), "utf8"));
        return { main: f.endsWith("-01"), n: summary ? Number(summary[1]) / CG_CALLS / 1e6 : 0 };
      });
    const all = counts.reduce((a, c) => a + c.n, 0);
    const main = counts.find((c) => c.main)?.n;
    return { cpu: counts.length ? all : undefined, main, instructions: true };
  } finally {
    await c.close();
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

function p99(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
}

const us = (ms) => (isNum(ms) ? `${(ms * 1000).toFixed(0)} µs` : "n/a");
const mi = (m) => (isNum(m) ? `${m.toFixed(2)} M` : "n/a");
const LATENCY_MS = 5;

function row(label, m, o, extra = "") {
  const ratio = isNum(m.cpu) && isNum(o.cpu) ? m.cpu / o.cpu : undefined;
  const shown = ratio !== undefined ? ` (÷ ${ratio.toFixed(2)})` : "";
  if (m.instructions)
    return {
      label,
      target: "instructions ≤ 1.1× official",
      met: ratio === undefined ? undefined : ratio <= 1.1,
      note:
        `instructions per call (callgrind): mcpfs ${mi(m.cpu)}, official ${mi(o.cpu)}${shown}; ` +
        `main thread: mcpfs ${mi(m.main)}, official ${mi(o.main)}${extra}`,
    };
  return {
    label,
    mcpfs: m.cpu,
    official: o.cpu,
    rssMcpfs: m.hwm,
    rssOfficial: o.hwm,
    target: `CPU ≤ 1.1× official; p99 < ${LATENCY_MS} ms`,
    met: ratio === undefined ? undefined : ratio <= 1.1 && m.p99 < LATENCY_MS,
    note:
      `server CPU per call (median of ${BATCH}-call batches): mcpfs ${us(m.cpu)}, official ${us(o.cpu)}${shown}` +
      `; latency p99: mcpfs ${m.p99?.toFixed(2)} ms, official ${o.p99?.toFixed(2)} ms${extra}`,
  };
}

export default {
  id: "cpu_per_call",
  title:
    "server CPU per small call (read_text_file 1.5 KB, list_directory, workspace read_file) and the SDK floor",
  async run(ctx) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-cpu-"));
    try {
      makeProject(dir);
      const small = path.join(dir, "small.ts");
      const folder = path.join(dir, "src");
      const runs = Math.max(ctx.runs, 3);
      const fsSurface = (call) => ({ bin: ctx.mcpfs, args: [dir], call });
      const official = (call) => ({ bin: ctx.official, args: [dir], call });
      const read = ["read_text_file", { path: small }];
      const list = ["list_directory", { path: folder }];
      const [mr, or] = await measurePair([fsSurface(read), official(read)], runs);
      const [ml, ol] = await measurePair([fsSurface(list), official(list)], runs);
      // The workspace surface's read (gitignore gate, change-safe state) against the official plain read.
      const ws = {
        bin: ctx.mcpfs,
        args: ["--project-dir", dir, "--console-only"],
        call: ["read_file", { file_path: "src/small.ts" }],
      };
      const [mw, ow] = await measurePair(
        [ws, official(["read_text_file", { path: path.join(folder, "small.ts") }])],
        runs,
      );
      const floor = (v) => ({
        bin: path.join(floorDir, `sdk-${v}.mjs`),
        args: [dir],
        call: ["noop", { path: small }],
      });
      const [f2, f1] = await measurePair([floor("v2"), floor("v1")], runs);
      // Per call: µs of CPU time, or millions of instructions under callgrind.
      const unit = f2.instructions ? mi : us;
      const above = (m, f) => (isNum(m) && isNum(f) ? unit(m - f) : "n/a");
      const p99s = f2.instructions
        ? ""
        : `; latency p99: v2 ${f2.p99?.toFixed(2)} ms, v1 ${f1.p99?.toFixed(2)} ms`;
      return [
        row("read_text_file of a 1.5 KB file", mr, or),
        row("list_directory of a folder of 21 entries", ml, ol),
        row("workspace read_file of a 1.5 KB file (official: read_text_file)", mw, ow),
        {
          label:
            "SDK floor: a one-tool server replying a constant 1.5 KB text, SDK v2 (mcpfs's) / v1 (official's)",
          ...(f2.instructions
            ? {}
            : { mcpfs: f2.cpu, official: f1.cpu, rssMcpfs: f2.hwm, rssOfficial: f1.hwm }),
          note:
            `${f2.instructions ? "instructions" : "server CPU"} per call: SDK v2 ${unit(f2.cpu)}, SDK v1 ${unit(f1.cpu)}${p99s}` +
            `; each surface's read above this floor: mcpfs ${above(mr.cpu, f2.cpu)}, workspace ${above(mw.cpu, f2.cpu)}, official ${above(or.cpu, f1.cpu)}` +
            (f2.instructions
              ? `; main thread: SDK v2 ${mi(f2.main)}, SDK v1 ${mi(f1.main)}, read above it: mcpfs ${above(mr.main, f2.main)}, workspace ${above(mw.main, f2.main)}, official ${above(or.main, f1.main)}; list_directory above it: mcpfs ${above(ml.main, f2.main)}, official ${above(ol.main, f1.main)}`
              : ""),
        },
      ];
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
