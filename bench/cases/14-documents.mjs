import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { makeBigXlsx, makePdf } from "../lib/documents.mjs";

/** A 100-page PDF, each page ~40 lines of text, and a ~10 MB workbook (made once, kept in the temp dir). */
async function fixtures(dir) {
  const pdf = path.join(dir, "book-100.pdf");
  if (!fs.existsSync(pdf)) {
    const page = (p) =>
      Array.from(
        { length: 40 },
        (_, l) => `Page ${p} line ${l + 1}: the quick brown fox jumps over the lazy dog`,
      );
    fs.writeFileSync(pdf, makePdf(Array.from({ length: 100 }, (_, i) => page(i + 1).join("\n"))));
  }
  const xlsx = path.join(dir, "sheet-10mb.xlsx");
  if (!fs.existsSync(xlsx)) fs.writeFileSync(xlsx, await makeBigXlsx(260_000));
  return { pdf, xlsx };
}

async function timed(conn, args) {
  const r = await conn.call("read_document", args);
  if (r.isError) throw new Error(`read_document: ${r.text}`);
  return { ms: r.ms, hwm: conn.mem().hwm, bytes: Buffer.byteLength(r.text) };
}

export default {
  id: "documents",
  title: "read_document: PDF pages and a sheet range (first call starts the document worker)",
  async run(ctx) {
    const dir = path.join(os.tmpdir(), "mcpfs-bench-documents");
    fs.mkdirSync(dir, { recursive: true });
    const { pdf, xlsx } = await fixtures(dir);
    const rows = [];
    const row = (label, m, target, met, note = "") =>
      rows.push({ label, mcpfs: `${m.ms.toFixed(0)} ms`, rssMcpfs: m.hwm, target, met, note });
    const conn = await connect(ctx.mcpfs, [dir]);
    try {
      const first = await timed(conn, { path: pdf, pages: "1" });
      row("100-page PDF, page 1: first call (worker start + pdf.js load)", first, "< 1 s", first.ms < 1000);
      const again = await timed(conn, { path: pdf, pages: "1" });
      row("100-page PDF, page 1 (worker running)", again, "< 200 ms", again.ms < 200);
      const range = await timed(conn, { path: pdf, pages: "41-60", maxChars: 1_000_000 });
      row("100-page PDF, pages 41-60", range, "< 1 s", range.ms < 1000, `${range.bytes} bytes of text`);
      const size = (fs.statSync(xlsx).size / 1024 / 1024).toFixed(1);
      const sheet = await timed(conn, { path: xlsx, range: "A1000:H1100" });
      row(`${size} MB xlsx, range A1000:H1100`, sheet, "< 3 s", sheet.ms < 3000, `${sheet.bytes} bytes`);
    } finally {
      await conn.close();
    }
    return rows;
  },
};
