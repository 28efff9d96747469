// A process's CPU time in nanoseconds: the sum over its threads (the main thread, libuv's pool that runs
// the fs calls, V8's helpers) of /proc/<pid>/task/<tid>/schedstat's first field, the scheduler's exact
// run time. Per-call CPU from 10 ms ticks (/proc/<pid>/stat) needs thousands of calls to mean anything;
// this needs a hundred. Linux only: elsewhere undefined (the callers fall back to ticks).
import fs from "node:fs";

export function cpuNs(pid) {
  let total = 0;
  let tids;
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tids) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {}
  }
  return total;
}
