import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { node22 } from "../../scripts/node22.mjs";
import { connect, SERVER_NODE } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { servers } from "../lib/tool.mjs";

/**
 * A Node 22 (the conformance suite's: installed from the registry on first use): mcpfs's executable turns on
 * Node's module compile cache there (22.1+), so its cold start is measured on it too. Undefined where none.
 */
function findNode22() {
  try {
    return node22(path.resolve(import.meta.dirname, "../.."));
  } catch (err) {
    process.stderr.write(`cold_start: no Node 22 (${err.message}); its row is left out\n`);
    return undefined;
  }
}

/** One discarded start (on Node 22 it writes the compile cache), then one measured. */
async function coldStart(server, node, env) {
  let sample;
  for (let i = 0; i <= 1; i++) {
    const c = await connect(server.bin, server.args, { ...server.env, ...env }, node);
    // The server's CPU (all threads) when its list arrived: its whole start-up (ticks where /proc has no
    // per-thread run time).
    const cpu = Number.isFinite(c.startCpuMs) ? c.startCpuMs : c.cpu();
    sample = { answered: c.startMs, listed: c.listedMs, cpu, hwm: c.mem().hwm };
    await c.close();
  }
  return sample;
}

/**
 * mcpfs and the official server started alternately on `node`, `runs` times each: the medians. `env` is
 * mcpfs's only (NODE_COMPILE_CACHE would turn Node's cache on for the official server too).
 */
async function sideBySide(ctx, node, env) {
  const s = servers(ctx, ctx.fx.many);
  // Interleaved so load spikes hit both alike.
  const m = [];
  const o = [];
  for (let i = 0; i < ctx.runs; i++) {
    m.push(await coldStart(s.mcpfs, node, env));
    o.push(await coldStart(s.official, node, {}));
  }
  const med = (xs, k) => median(xs.map((x) => x[k]));
  return {
    mcpfs: med(m, "answered"),
    official: med(o, "answered"),
    listedM: med(m, "listed"),
    listedO: med(o, "listed"),
    cpuM: med(m, "cpu"),
    cpuO: med(o, "cpu"),
    rssMcpfs: m.at(-1)?.hwm,
    rssOfficial: o.at(-1)?.hwm,
  };
}

function row(label, r, target, factor) {
  return {
    label,
    mcpfs: r.mcpfs,
    official: r.official,
    rssMcpfs: r.rssMcpfs,
    rssOfficial: r.rssOfficial,
    target,
    met: factor === undefined ? undefined : r.mcpfs <= factor * r.official && r.cpuM <= r.cpuO,
    note:
      `mcpfs ÷ official = ${(r.mcpfs / r.official).toFixed(2)}; server CPU until then: ` +
      `${r.cpuM.toFixed(0)} vs ${r.cpuO.toFixed(0)} ms = ${(r.cpuM / r.cpuO).toFixed(2)}; until the SDK client has also validated the ` +
      `list and compiled its output-schema validators: ` +
      `${r.listedM.toFixed(0)} vs ${r.listedO.toFixed(0)} ms = ${(r.listedM / r.listedO).toFixed(2)}`,
  };
}

export default {
  id: "cold_start",
  title: "cold start (spawn → tools/list answered), on the machine's Node and on Node 22",
  async run(ctx) {
    const version = (node) => (node === SERVER_NODE ? process.versions.node : "22");
    const rows = [
      row(
        `cold start on the machine's Node (spawn → tools/list answer received)`,
        await sideBySide(ctx, SERVER_NODE, {}),
        "≤ 0.9× official; CPU ≤ official",
        0.9,
      ),
    ];
    const NODE22 = findNode22();
    if (NODE22) {
      // A compile cache of this run's own, so an older one (another build) is not what is measured.
      const cache = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-cc-"));
      try {
        rows.push(
          row(
            `cold start on Node ${version(NODE22)} with Node's compile cache (spawn → tools/list answer received)`,
            await sideBySide(ctx, NODE22, { NODE_COMPILE_CACHE: cache }),
            "reported beside the above",
          ),
        );
      } finally {
        fs.rmSync(cache, { recursive: true, force: true });
      }
    }
    return rows;
  },
};
