import fs from "node:fs";
import path from "node:path";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

const GIB = 1024 * 1024 * 1024;

/** `<fixtures>/long-line/one-line.txt` (made once): 1 GiB of text without a line break, a marker at its end. */
function oneLineFile(base) {
  const dir = path.join(base, "long-line");
  const file = path.join(dir, "one-line.txt");
  const tail = "NEEDLE at the end";
  if (fs.existsSync(file) && fs.statSync(file).size === GIB + tail.length) return file;
  fs.mkdirSync(dir, { recursive: true });
  const block = Buffer.alloc(1024 * 1024, "x");
  const fd = fs.openSync(file, "w");
  for (let i = 0; i < 1024; i++) fs.writeSync(fd, block);
  fs.writeSync(fd, tail);
  fs.closeSync(fd);
  return file;
}

export default {
  id: "long_line",
  title: "a 1 GiB file that is one line: every read path, bounded memory",
  async run(ctx) {
    const file = oneLineFile(ctx.fx.base);
    const dir = path.dirname(file);
    const s = servers(ctx, dir);
    const ops = [
      ["head 1", "read_text_file", { path: file, head: 1 }],
      ["tail 1", "read_text_file", { path: file, tail: 1 }],
      ["tail 1, line numbers", "read_text_file", { path: file, tail: 1, lineNumbers: true }],
      ["startLine 1–1", "read_text_file", { path: file, startLine: 1, endLine: 1 }],
      ["startLine 2", "read_text_file", { path: file, startLine: 2 }],
      ["whole read, line numbers", "read_text_file", { path: file, lineNumbers: true }],
      [
        "grep the file (literal, context 1)",
        "grep",
        { path: file, pattern: "NEEDLE", literal: true, contextLines: 1 },
      ],
      // ripgrep searching a folder reads into a buffer that grows to the line (its own memory, 1 GiB, and
      // seconds of copying), where a file named directly is memory-mapped.
      ["grep its folder (literal)", "grep", { path: dir, pattern: "NEEDLE", literal: true }],
      ["workspace read_file", "read_file", { file_path: "one-line.txt" }, "workspace"],
      [
        "workspace read_file 1–1",
        "read_file",
        { file_path: "one-line.txt", start_line: 1, end_line: 1 },
        "workspace",
      ],
    ];
    const rows = [];
    for (const [label, tool, params, server] of ops) {
      // One fresh server per call: its peak RSS is that call's.
      const m = await measureTool(s[server ?? "mcpfs"], tool, params, {
        runs: 1,
        warmup: 0,
        timeoutMs: 120_000,
      });
      // The official server holds the line (and times out on some): given 15 s, then reported as an error.
      const o = server
        ? { na: true }
        : await measureTool(s.official, tool, params, { runs: 1, warmup: 0, timeoutMs: 15_000 });
      const growth = isNum(m.hwm) ? m.hwm - m.rssBefore : undefined;
      const t = timeOf(m);
      rows.push({
        label: `1 GiB one-line file: ${label}`,
        mcpfs: t,
        official: timeOf(o),
        rssMcpfs: m.hwm,
        rssOfficial: o.hwm,
        target: "peak RSS growth < 64 MiB, < 5 s",
        met: isNum(growth) && isNum(t) ? growth < 64 && t < 5000 : undefined,
        note: `${isNum(growth) ? `mcpfs peak RSS − RSS before = ${growth.toFixed(1)} MiB; ` : ""}reply ${m.text ? (Buffer.byteLength(m.text) / 1024).toFixed(0) : "–"} KiB${o.error ? `; official: ${o.error.slice(0, 60)}` : ""}`,
      });
    }
    return rows;
  },
};
