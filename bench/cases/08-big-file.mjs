import path from "node:path";
import { timeCommand } from "../lib/measure.mjs";
import { isNum, measureTool, servers, timeOf } from "../lib/tool.mjs";

const LINES = 2_000_000;

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
