// What the encoding policy (core/text/decode.ts: BOM sniff, UTF-8, a named encoding) costs a UTF-8 read:
// the core's reads (whole within the budget, head, tail, a line range) of a 1 MB UTF-8 file, in process, CPU
// time per call. With `--baseline DIR` (a checkout of an older commit with `npm run build` done), the same
// reads of that build alternate with this one's, batch by batch, and the row compares the two: CPU time, not
// wall time, so the other processes on a shared machine move both sides alike.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "../lib/measure.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LINES = 20_000;
const BATCHES = 30;
const PER_BATCH = 60;

function baselineDir() {
  const i = process.argv.indexOf("--baseline");
  return i === -1 ? undefined : path.resolve(process.argv[i + 1]);
}

/** The core read functions of the build in `dir` (its compiled `dist/`, not the bundle), over one root. */
async function coreOf(dir, root) {
  const load = (m) => import(pathToFileURL(path.join(dir, "dist", m)).href);
  const { makeRoot, Workspace } = await load("core/workspace.js");
  const { filesystemPolicy } = await load("surfaces/filesystem/policy.js");
  const read = await load("core/text/read-file.js");
  const ws = new Workspace([await makeRoot(root, "rw", "directory")], filesystemPolicy.pathRules({}));
  return { ws, read };
}

const READS = [
  ["whole read (48,000-byte budget)", (c, t) => c.read.readTextFile(t, { budget: 48_000, withState: true })],
  ["head 2,000 lines", (c, t) => c.read.readTextFile(t, { head: 2000, budget: 1 << 20, withState: true })],
  ["tail 1,000 lines", (c, t) => c.read.readTextFile(t, { tail: 1000, budget: 1 << 20, withState: true })],
  [
    "lines 10,000-10,999",
    (c, t) => c.read.readLineRange(t, { start: 10_000, end: 10_999, maxBytes: 1 << 20 }),
  ],
];

/** CPU microseconds per call of `read` over `PER_BATCH` calls. */
async function batch(core, target, read) {
  const before = process.cpuUsage();
  for (let i = 0; i < PER_BATCH; i++) await read(core, target);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / PER_BATCH;
}

export default {
  id: "utf8_decode",
  title: "the encoding policy's cost on UTF-8 reads (core reads in process, CPU time per call)",
  async run() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-bench-utf8-"));
    try {
      const body = Array.from(
        { length: LINES },
        (_, i) => `line ${i + 1}: naïve café — ${"x".repeat(i % 40)}`,
      );
      fs.writeFileSync(path.join(root, "utf8.txt"), `${body.join("\n")}\n`);
      const base = baselineDir();
      const sides = [await coreOf(repo, root), ...(base ? [await coreOf(base, root)] : [])];
      const targets = await Promise.all(sides.map((c) => c.ws.resolve("utf8.txt", { intent: "read" })));
      const rows = [];
      for (const [label, read] of READS) {
        const samples = sides.map(() => []);
        for (let b = 0; b < BATCHES + 2; b++)
          // Each side goes first in every other batch: neither inherits the other's garbage every time.
          for (const k of b % 2 === 0 ? sides.keys() : [...sides.keys()].reverse()) {
            const us = await batch(sides[k], targets[k], read);
            if (b >= 2) samples[k].push(us);
          }
        const [mine, theirs] = samples.map((s) => median(s));
        rows.push({
          label: `UTF-8 ${label}: CPU per call${base ? " (official column: the baseline build)" : ""}`,
          // The table prints milliseconds.
          mcpfs: mine / 1000,
          official: theirs === undefined ? undefined : theirs / 1000,
          target: base ? "≤ 1.05× baseline" : "– (pass --baseline DIR)",
          met: theirs === undefined ? undefined : mine <= 1.05 * theirs,
          note: theirs === undefined ? "" : `${(mine / theirs).toFixed(3)}× baseline`,
        });
      }
      return rows;
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  },
};
