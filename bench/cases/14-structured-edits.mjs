import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "../lib/client.mjs";
import { median } from "../lib/measure.mjs";

/** A ~10 MB nbformat 4.5 notebook: 400 code cells, each with a stream output and a ~24 KB PNG output. */
function bigNotebook(file) {
  const png = randomBytes(18_000).toString("base64");
  const cells = [];
  for (let i = 0; i < 400; i++)
    cells.push({
      cell_type: "code",
      execution_count: i + 1,
      id: `cell${i}`,
      metadata: {},
      outputs: [
        { output_type: "stream", name: "stdout", text: [`step ${i}\n`] },
        { output_type: "display_data", data: { "image/png": png, "text/plain": ["<Figure>"] }, metadata: {} },
      ],
      source: [`x = ${i}\n`, "plot(x)"],
    });
  const nb = {
    cells,
    metadata: { kernelspec: { name: "python3", display_name: "Python 3" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  fs.writeFileSync(file, `${JSON.stringify(nb, null, 1)}\n`);
}

/** A ~1 MB docker-compose-like YAML file: 6,000 services with comments and a shared anchor. */
function bigYaml(file) {
  const out = ["x-log: &log", "  driver: json-file # shared", "services:"];
  for (let i = 0; i < 6000; i++)
    out.push(
      `  svc${i}:`,
      `    image: "registry.example.com/team/service-${i}:1.0.${i}" # pinned`,
      "    logging: *log",
      "    environment:",
      `      NAME: service-${i}`,
      "      LEVEL: info",
      "    ports:",
      `      - "${10000 + i}:80"`,
    );
  fs.writeFileSync(file, `${out.join("\n")}\n`);
}

export default {
  id: "structured_edits",
  title: "structured edits: a cell of a 10 MB notebook, a value of a 1 MB YAML file (ms, peak RSS)",
  async run(ctx) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-structured-"));
    const nb = path.join(dir, "big.ipynb");
    const yml = path.join(dir, "big.yml");
    bigNotebook(nb);
    bigYaml(yml);
    const mb = (f) => (fs.statSync(f).size / 2 ** 20).toFixed(1);
    const rows = [];
    const conn = await connect(ctx.mcpfs, [dir]);
    try {
      // Server CPU time per edit too: on a shared machine it moves far less than wall time.
      const cpu = [];
      const edit = async (tool, args) => {
        const cpu0 = conn.cpu();
        const r = await conn.call(tool, args);
        if (r.isError) throw new Error(`${tool}: ${r.text}`);
        cpu.push(conn.cpu() - cpu0);
        return r.ms;
      };
      const cpuNote = () => `server CPU ${Math.round(median(cpu.splice(0).slice(1)))} ms an edit`;
      const runs = Math.max(3, ctx.runs ?? 3);
      const nbMs = [];
      for (let i = 0; i <= runs; i++)
        nbMs.push(await edit("notebook_edit", { path: nb, edits: [{ cell: i * 37, source: `y = ${i}` }] }));
      rows.push({
        label: `notebook_edit: one cell of a ${mb(nb)} MB notebook (validated, journaled)`,
        mcpfs: median(nbMs.slice(1)),
        rssMcpfs: conn.mem().hwm,
        target: "< 1 s",
        met: median(nbMs.slice(1)) < 1000,
        note: cpuNote(),
      });
      const yMs = [];
      for (let i = 0; i <= runs; i++)
        yMs.push(
          await edit("edit_structured", {
            path: yml,
            edits: [{ set: `services.svc${i * 1201}.environment.LEVEL`, value: "debug" }],
          }),
        );
      rows.push({
        label: `edit_structured: one value of a ${mb(yml)} MB YAML file`,
        mcpfs: median(yMs.slice(1)),
        rssMcpfs: conn.mem().hwm,
        target: "< 1.5 s",
        met: median(yMs.slice(1)) < 1500,
        note: cpuNote(),
      });
    } finally {
      await conn.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
