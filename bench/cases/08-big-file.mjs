import fs from "node:fs";
import path from "node:path";
import { timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

const LINES = 2_000_000;
const LINE = `${"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".padEnd(99, ".")}\n`;

/**
 * `<dir>/sizes/{20mb,60mb,2gb}.txt` (made once): 100-byte lines; the 2 GB file has 1 MB of lines at each end
 * around a hole (sparse where the filesystem allows), so it costs seconds and no disk to make.
 */
function sizedFiles(dir) {
  const out = path.join(dir, "sizes");
  fs.mkdirSync(out, { recursive: true });
  const block = LINE.repeat(10_000); // 1 MB
  const files = {};
  for (const [name, bytes, sparse] of [
    ["20mb", 20_000_000, false],
    ["60mb", 60_000_000, false],
    ["2gb", 2_000_000_000, true],
  ]) {
    const file = path.join(out, `${name}.txt`);
    files[name] = file;
    if (fs.existsSync(file) && fs.statSync(file).size === bytes) continue;
    const fd = fs.openSync(file, "w");
    const at = sparse
      ? [0, bytes - block.length]
      : Array.from({ length: bytes / block.length }, (_, i) => i * block.length);
    for (const pos of at) fs.writeSync(fd, block, pos);
    fs.closeSync(fd);
  }
  return files;
}

export default {
  id: "big_file",
  title: "head / tail / 100-line range at the end of a 200 MB file",
  async run(ctx) {
    const file = ctx.fx.bigFile;
    const dir = path.dirname(file);
    const s = servers(ctx, dir);
    const ops = [
      {
        label: "tail 10",
        tool: "read_text_file",
        params: { path: file, tail: 10 },
        os: ["tail", ["-n", "10", file]],
      },
      {
        label: "head 10",
        tool: "read_text_file",
        params: { path: file, head: 10 },
        os: ["head", ["-n", "10", file]],
      },
      {
        label: "lines 1,999,901–2,000,000 (workspace read_file)",
        tool: "read_file",
        server: "workspace",
        params: { file_path: "big.txt", start_line: LINES - 99, end_line: LINES },
        os: ["sed", ["-n", `${LINES - 99},${LINES}p;${LINES}q`, file]],
      },
    ];
    const rows = [];
    // #12: head/tail cost must not grow with the file (target: within 1.5x of the official server).
    const sized = sizedFiles(path.dirname(dir));
    for (const [name, file] of Object.entries(sized)) {
      const sz = servers(ctx, path.dirname(file));
      for (const p of [{ head: 10 }, { tail: 10 }]) {
        const params = { path: file, ...p };
        // A call takes about a millisecond: 5 samples after one warm-up measure the JIT more than the read.
        const m = await measureTool(sz.mcpfs, "read_text_file", params, { runs: 30, warmup: 10 });
        const o = await measureTool(sz.official, "read_text_file", params, { runs: 30, warmup: 10 });
        const [k, n] = Object.entries(p)[0];
        const osT = timeCommand(k, ["-n", String(n), file], 5);
        const a = timeOf(m);
        const b = timeOf(o);
        rows.push({
          label: `${name.replace("mb", " MB").replace("gb", " GB")} file: ${k} ${n}`,
          mcpfs: a,
          official: b,
          os: osT.ms,
          osLabel: k,
          rssMcpfs: m.hwm,
          rssOfficial: o.hwm,
          target: "≤ 1.5× official",
          met: isNum(a) && isNum(b) ? a <= 1.5 * b : undefined,
          note: m.isError || o.isError ? `mcpfs: ${m.text?.slice(0, 80)}` : "",
        });
      }
    }
    {
      // A range near the end of the 20 MB file (200,000 lines), against sed (target: ≤ 1.5× sed).
      const file = sized["20mb"];
      const total = 200_000;
      const sz = servers(ctx, path.dirname(file));
      const params = { file_path: path.basename(file), start_line: total - 99, end_line: total };
      const m = await measureTool(sz.workspace, "read_file", params, { runs: 5 });
      const f = await measureTool(
        sz.mcpfs,
        "read_text_file",
        { path: file, startLine: total - 99, endLine: total },
        { runs: 5 },
      );
      const osT = timeCommand("sed", ["-n", `${total - 99},${total}p;${total}q`, file], 5);
      for (const [label, r] of [
        ["workspace read_file", m],
        ["read_text_file startLine", f],
      ]) {
        const a = timeOf(r);
        rows.push({
          label: `20 MB file: lines ${total - 99}–${total} (${label})`,
          mcpfs: a,
          official: "n/a",
          os: osT.ms,
          osLabel: "sed",
          rssMcpfs: r.hwm,
          target: "≤ 1.5× sed",
          met: isNum(a) ? a <= 1.5 * osT.ms : undefined,
        });
      }
    }
    for (const op of ops) {
      const m = await measureTool(s[op.server ?? "mcpfs"], op.tool, op.params, { runs: 3 });
      const o = op.server ? { na: true } : await measureTool(s.official, op.tool, op.params, { runs: 3 });
      const osT = timeCommand(op.os[0], op.os[1], 3);
      const growth = isNum(m.hwm) ? m.hwm - m.rssBefore : undefined;
      rows.push({
        label: `200 MB file: ${op.label}`,
        mcpfs: timeOf(m),
        official: timeOf(o),
        os: osT.ms,
        osLabel: op.os[0],
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "server RSS grows < 20 MB",
        met: isNum(growth) ? growth < 20 : undefined,
        note: isNum(growth) ? `mcpfs peak RSS − RSS before the calls = ${growth.toFixed(1)} MiB` : "",
      });
    }
    return rows;
  },
};
