// Timing helpers shared by the cases.
import { spawnSync } from "node:child_process";

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Wall time of an OS command (its output discarded), median of `runs` after one warm-up. */
export function timeCommand(cmd, args, runs, opts = {}) {
  const once = () => {
    const t = performance.now();
    const r = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 30, ...opts });
    const ms = performance.now() - t;
    return { ms, out: r.stdout };
  };
  let last = once();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    last = once();
    samples.push(last.ms);
  }
  return { ms: median(samples), samples, out: last.out };
}

/** One run of an OS command: its wall time in ms (output discarded). */
export function commandOnce(cmd, args, opts = {}) {
  const t = performance.now();
  spawnSync(cmd, args, { stdio: ["ignore", "ignore", "ignore"], ...opts });
  return performance.now() - t;
}
