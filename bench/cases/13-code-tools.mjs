import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";
import { replyTokens } from "../lib/tokens.mjs";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const src = path.join(repo, "src");

const tsFiles = (dir) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => path.join(dir, f));

/** A 5,000-line TypeScript file made of the project's own sources (each file wrapped in a namespace). */
function bigFile(dir) {
  const out = [];
  let i = 0;
  for (const f of tsFiles(src)) {
    if (out.length >= 5000) break;
    const body = fs
      .readFileSync(f, "utf8")
      .split("\n")
      .filter((l) => !/^(import|export \* from)/.test(l));
    out.push(`namespace N${i++} {`, ...body, "}");
  }
  const file = path.join(dir, "big.ts");
  fs.writeFileSync(file, `${out.slice(0, 5000).join("\n")}\n}\n`);
  return file;
}

async function timed(conn, tool, args) {
  const r = await conn.call(tool, args);
  if (r.isError) throw new Error(`${tool}: ${r.text}`);
  return r;
}

export default {
  id: "code_tools",
  title: "code tools: tokens against reading and grepping, parse and map times (o200k_base)",
  async run(ctx) {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-code-"));
    const rows = [];
    const tok = (n) => `${n.toLocaleString("en-US")} tok`;
    try {
      // First call of a language (worker start + grammar load) on a fresh server.
      const cold = await connect(ctx.mcpfs, [src, scratch]);
      const first = await timed(cold, "outline", { path: path.join(src, "core/walk.ts") });
      rows.push({
        label: "outline: first call (worker start + TypeScript grammar)",
        mcpfs: `${first.ms.toFixed(0)} ms`,
        target: "< 300 ms",
        met: first.ms < 300,
      });
      const map0 = await timed(cold, "repo_map", { path: src, maxTokens: 1024 });
      const map1 = await timed(cold, "repo_map", { path: src, maxTokens: 1024 });
      rows.push({
        label: "repo_map of src/: first (parses every file)",
        mcpfs: `${map0.ms.toFixed(0)} ms`,
        target: "< 2 s",
        met: map0.ms < 2000,
      });
      rows.push({
        label: "repo_map of src/: again (cached)",
        mcpfs: `${map1.ms.toFixed(0)} ms`,
        target: "< 200 ms",
        met: map1.ms < 200,
      });
      const mapTok = replyTokens(map1.result);
      rows.push({
        label: "repo_map maxTokens 1024: tokens of the map",
        mcpfs: tok(mapTok),
        target: "1024 ± 15 %",
        met: Math.abs(mapTok - 1024) <= 0.15 * 1024,
      });

      // Outline against reading the whole file, per file of src/.
      const ratios = [];
      for (const f of tsFiles(src)) {
        const o = replyTokens((await timed(cold, "outline", { path: f })).result);
        const r = replyTokens((await timed(cold, "read_text_file", { path: f })).result);
        ratios.push(o / r);
      }
      const med = median(ratios);
      rows.push({
        label: `outline vs reading the file whole: median over src/ (${ratios.length} files)`,
        mcpfs: `${(100 * med).toFixed(1)} %`,
        target: "≤ 10 %",
        met: med <= 0.1,
      });

      // read_symbol against the line range a model would read for it.
      const rs = await timed(cold, "read_symbol", {
        path: path.join(src, "core/budget.ts"),
        name: "ReplyBudget",
      });
      const { startLine, endLine } = rs.result.structuredContent;
      const range = await timed(cold, "read_text_file", {
        path: path.join(src, "core/budget.ts"),
        startLine,
        endLine,
        lineNumbers: true,
      });
      rows.push({
        label: "read_symbol ReplyBudget vs read_text_file of its lines",
        mcpfs: tok(replyTokens(rs.result)),
        official: tok(replyTokens(range.result)),
      });

      // find_references against grep for the same identifier.
      const refs = await timed(cold, "find_references", { path: src, name: "ReplyBudget" });
      const grep = await timed(cold, "grep", { path: src, pattern: "ReplyBudget", literal: true });
      const a = replyTokens(refs.result);
      const b = replyTokens(grep.result);
      rows.push({
        label: "find_references ReplyBudget vs grep (comments and strings dropped)",
        mcpfs: tok(a),
        official: `${tok(b)} (grep)`,
        note: `${(a / b).toFixed(2)}× grep`,
      });
      await cold.close();

      // Outline of a 5,000-line file, warm.
      const file = bigFile(scratch);
      const conn = await connect(ctx.mcpfs, [scratch]);
      await timed(conn, "outline", { path: file });
      const warm = [];
      for (let i = 0; i < 7; i++) warm.push((await timed(conn, "outline", { path: file })).ms);
      rows.push({
        label: "outline of a 5,000-line file, warm (median of 7)",
        mcpfs: `${median(warm).toFixed(1)} ms`,
        target: "< 30 ms",
        met: median(warm) < 30,
      });
      await conn.close();
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    return rows;
  },
};
