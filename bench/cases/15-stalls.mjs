import fs from "node:fs";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { isNum } from "../lib/tool.mjs";

/**
 * The timings the tests do not assert (they judge by effect and ordering, test/mcp/hostile-globs,
 * bounded-inputs, special-files, test/e2e/regex-admit, grep-decode-stall): how long a small read waits while a
 * hostile call runs on the same server, and how long the hostile call takes.
 */
function stallFixtures(base) {
  const dir = path.join(base, "stalls");
  fs.mkdirSync(path.join(dir, "sub"), { recursive: true });
  fs.mkdirSync(path.join(dir, "latin1"));
  for (const rel of ["a".repeat(250), `sub/${"a".repeat(250)}`])
    fs.writeFileSync(path.join(dir, rel), "needle\n");
  fs.writeFileSync(path.join(dir, "ok.txt"), "fine\n");
  // 24 MiB of Latin-1 (é is 0xE9, never UTF-8) with its one match on the last line: decoded while searched.
  const line = Buffer.from("caf\xe9 au lait, une ligne parmi d'autres du fichier\n", "latin1");
  const block = Buffer.concat(Array.from({ length: 16 * 1024 }, () => line));
  const fd = fs.openSync(path.join(dir, "latin1", "big.txt"), "w");
  for (let n = 0; n < (24 * 1024 * 1024) / block.length; n++) fs.writeSync(fd, block);
  fs.writeSync(fd, Buffer.from("aiguille \xe0 la fin\n", "latin1"));
  fs.closeSync(fd);
  return dir;
}

export default {
  id: "stalls",
  title: "a small read while a hostile call runs on the same server",
  async run(ctx) {
    const dir = stallFixtures(ctx.fx.base);
    const ok = path.join(dir, "ok.txt");
    const cases = [
      ["hostile glob, search_files", "search_files", { path: dir, pattern: "**/*a*a*a*a*a*a*a*a*b" }],
      ["hostile glob, grep", "grep", { path: dir, pattern: "needle", glob: "*a*a*a*a*a*a*a*a*b" }],
      ["regex slow to compile, grep", "grep", { path: dir, pattern: "[a-z]{1000}".repeat(1000) }],
      [
        "24 MiB in Latin-1, grep with encoding",
        "grep",
        { path: `${dir}/latin1`, pattern: "aiguille", encoding: "latin1" },
      ],
      ["path of 108 KB, read_text_file", "read_text_file", { path: `${dir}/${"abcdefgh/".repeat(12_000)}x` }],
    ];
    const rows = [];
    const conn = await connect(ctx.mcpfs, [dir]);
    try {
      for (const [label, tool, params] of cases) {
        const hostile = conn.call(tool, params, 60_000).catch((err) => ({ error: String(err) }));
        const small = await conn.call("read_text_file", { path: ok });
        const h = await hostile;
        rows.push({
          label: `small read during: ${label}`,
          mcpfs: small.ms,
          official: "n/a",
          target: "< 2000 ms",
          met: isNum(small.ms) ? small.ms < 2000 : undefined,
          note: h.error ? `hostile call: ${h.error.slice(0, 60)}` : `hostile call ${Math.round(h.ms)} ms`,
        });
      }
    } finally {
      await conn.close();
    }
    return rows;
  },
};
