import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { isNum, servers } from "../lib/tool.mjs";

/**
 * Both servers connected at once, each warmed by one batch, then measured batches alternate between them:
 * the bench's own SDK client warms up (JIT) during the first few hundred calls, and measuring one server
 * entirely before the other would charge that warm-up to whichever goes first. Besides the wall time of a
 * batch, the server process's own CPU time over the measured batches (user + system, read from the OS) is
 * what the target is about: per call, the server's work, whatever the client and the machine's load add.
 */
async function batches(servers, files, runs) {
  const conns = [];
  try {
    for (const s of servers) conns.push(await connect(s.bin, s.args, s.env));
    const cpu = conns.map(() => 0);
    const once = async (c, k) => {
      const cpu0 = c.cpu();
      const t = performance.now();
      for (const f of files) await c.call("get_file_info", { path: f });
      const ms = performance.now() - t;
      cpu[k] += c.cpu() - cpu0;
      return ms;
    };
    for (const [k, c] of conns.entries()) if (c.has("get_file_info")) await once(c, k);
    cpu.fill(0);
    const samples = conns.map(() => []);
    for (let i = 0; i < runs; i++)
      for (const [k, c] of conns.entries()) if (c.has("get_file_info")) samples[k].push(await once(c, k));
    return conns.map((c, k) =>
      c.has("get_file_info")
        ? { ms: median(samples[k]), hwm: c.mem().hwm, cpuPerCall: cpu[k] / (runs * files.length) }
        : { na: true },
    );
  } finally {
    await Promise.all(conns.map((c) => c.close()));
  }
}

const floorDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "lib", "floor");
const us = (x) => (isNum(x) ? `${(x * 1000).toFixed(0)} µs` : "n/a");

/**
 * What the SDK alone costs per call: a one-tool server of each SDK generation (the official server's v1,
 * mcpfs's v2 through serveStdio), same reply text, measured the same way. mcpfs's own work per call is its
 * CPU above the v2 floor; the official's, its CPU above the v1 floor.
 */
async function sdkFloorRow(dir, files, runs, m, o) {
  const floor = (v) => ({ bin: path.join(floorDir, `sdk-${v}.mjs`), args: [dir], env: {} });
  const [f1, f2] = await batches([floor("v1"), floor("v2")], files, runs);
  const above = (x, base) => (isNum(x) && isNum(base) ? us(x - base) : "n/a");
  return {
    label: "SDK floor: 200 × get_file_info, one-tool server on SDK v2 / v1",
    mcpfs: f2.ms,
    official: f1.ms,
    rssMcpfs: f2.hwm,
    rssOfficial: f1.hwm,
    note:
      `server CPU per call: SDK v2 ${us(f2.cpuPerCall)}, SDK v1 ${us(f1.cpuPerCall)}; ` +
      `above its SDK's floor: mcpfs ${above(m.cpuPerCall, f2.cpuPerCall)}, official ${above(o.cpuPerCall, f1.cpuPerCall)}`,
  };
}

export default {
  id: "calls_200",
  title: "200 sequential get_file_info calls",
  async run(ctx) {
    const dir = ctx.fx.many;
    const files = fs
      .readdirSync(dir)
      .sort()
      .slice(0, 200)
      .map((f) => path.join(dir, f));
    const s = servers(ctx, dir);
    const [m, o] = await batches([s.mcpfs, s.official], files, ctx.runs);
    const rate = (x) => (x.na ? "n/a" : isNum(x.ms) ? (200 / x.ms) * 1000 : undefined);
    const mr = rate(m);
    const or = rate(o);
    const mc = m.cpuPerCall;
    const oc = o.cpuPerCall;
    return [
      {
        label: "200 × get_file_info (one batch; batches alternate between the servers)",
        mcpfs: m.na ? "n/a" : m.ms,
        official: o.na ? "n/a" : o.ms,
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "server CPU per call ≤ official",
        met: isNum(mc) && isNum(oc) ? mc <= oc : undefined,
        note:
          `server CPU per call: mcpfs ${us(mc)}, official ${us(oc)}` +
          (isNum(mc) && isNum(oc) ? ` (÷ ${(mc / oc).toFixed(2)})` : "") +
          `; calls/s: mcpfs ${isNum(mr) ? mr.toFixed(0) : mr}, official ${isNum(or) ? or.toFixed(0) : or}`,
      },
      await sdkFloorRow(dir, files, ctx.runs, m, o),
    ];
  },
};
