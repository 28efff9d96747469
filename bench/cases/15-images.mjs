import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { makeJpeg, makePng } from "../lib/images.mjs";

/** A 4,000 × 3,000 PNG (~14 MB) and JPEG (~2 MB) of a photo-like picture (made once, kept in the temp dir). */
async function fixtures(dir) {
  const png = path.join(dir, "photo-4000x3000.png");
  if (!fs.existsSync(png)) fs.writeFileSync(png, makePng(4000, 3000));
  const jpg = path.join(dir, "photo-4000x3000.jpg");
  if (!fs.existsSync(jpg)) fs.writeFileSync(jpg, await makeJpeg(4000, 3000));
  return { png, jpg };
}

/**
 * One read_media_file call: time, the server's CPU time (all its threads: wall time on a loaded machine
 * says little), its peak RSS so far, and the bytes of the image sent.
 */
async function timed(conn, args) {
  const cpu = conn.cpu();
  const r = await conn.call("read_media_file", args);
  if (r.isError) throw new Error(`read_media_file: ${r.text}`);
  const image = r.result.content.find((c) => c.type === "image");
  const bytes = Buffer.from(image.data, "base64").length;
  return { ms: r.ms, cpuMs: conn.cpu() - cpu, hwm: conn.mem().hwm, bytes };
}

export default {
  id: "images",
  title: "read_media_file: a 4,000 × 3,000 image scaled to 1,568 px (first call starts the document worker)",
  async run(ctx) {
    const dir = path.join(os.tmpdir(), "mcpfs-bench-images");
    fs.mkdirSync(dir, { recursive: true });
    const { png, jpg } = await fixtures(dir);
    const rows = [];
    const row = (label, m, target, met, file) =>
      rows.push({
        label,
        mcpfs: `${m.ms.toFixed(0)} ms`,
        rssMcpfs: m.hwm,
        target,
        met,
        note: `${fs.statSync(file).size} -> ${m.bytes} bytes; CPU ${m.cpuMs.toFixed(0)} ms`,
      });
    const conn = await connect(ctx.mcpfs, [dir]);
    try {
      const firstPng = await timed(conn, { path: png });
      row(
        "PNG 4000x3000 -> 1568x1176: first call (worker start)",
        firstPng,
        "< 3 s",
        firstPng.ms < 3000,
        png,
      );
      const firstJpg = await timed(conn, { path: jpg });
      row(
        "JPEG 4000x3000 -> 1568x1176: first JPEG (WASM compile)",
        firstJpg,
        "< 2 s",
        firstJpg.ms < 2000,
        jpg,
      );
      const againPng = await timed(conn, { path: png });
      row("PNG 4000x3000 -> 1568x1176 (worker running)", againPng, "< 1.5 s", againPng.ms < 1500, png);
      const againJpg = await timed(conn, { path: jpg });
      row("JPEG 4000x3000 -> 1568x1176 (worker running)", againJpg, "< 1 s", againJpg.ms < 1000, jpg);
    } finally {
      await conn.close();
    }
    return rows;
  },
};
