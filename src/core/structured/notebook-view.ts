/** A notebook's cells as the model reads them: source, execution count, outputs as text (images named). */
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";

export type OutputMode = "none" | "text" | "all";

interface RawOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}
interface RawCell {
  id?: string;
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  outputs?: RawOutput[];
  attachments?: Record<string, Record<string, unknown>>;
}

export interface CellView {
  index: number;
  id?: string;
  type: string;
  executionCount?: number | null;
  /** Header line, source lines, output lines. */
  lines: string[];
  images: { mimeType: string; data: string }[];
}

/** Text of one output beyond this is cut (the reply budget cuts the whole reply too). */
const OUTPUT_CHARS = 4000;
const joined = (v: unknown) =>
  Array.isArray(v) ? v.join("") : typeof v === "string" ? v : JSON.stringify(v);
const IMAGE = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;

function cut(text: string): string {
  return text.length <= OUTPUT_CHARS
    ? text
    : `${text.slice(0, OUTPUT_CHARS)}… (${text.length} characters, cut)`;
}

function outputLines(o: RawOutput, mode: OutputMode, images: CellView["images"]): string[] {
  if (o.output_type === "stream") return [`→ ${o.name ?? "stream"}: ${cut(joined(o.text))}`];
  if (o.output_type === "error")
    return [
      `→ error ${o.ename}: ${o.evalue}`,
      ...(o.traceback ?? []).map((l) => cut(l.replace(/\x1b\[[0-9;]*m/g, ""))),
    ];
  const data = o.data ?? {};
  const out: string[] = [];
  for (const [mime, value] of Object.entries(data)) {
    const text = joined(value);
    if (IMAGE.test(mime) && mime !== "image/svg+xml") {
      out.push(
        `→ ${o.output_type} ${mime} (${Math.round((text.length * 3) / 4 / 1024)} KB image${mode === "all" ? ", returned below" : "; outputs=all returns it"})`,
      );
      if (mode === "all") images.push({ mimeType: mime, data: text.replace(/\s/g, "") });
    } else if (mime === "text/plain" || !("text/plain" in data))
      out.push(`→ ${o.output_type} ${mime}: ${cut(text)}`);
  }
  return out;
}

/** The cells (all, or those `refs` name by index or id) of a notebook's text. */
export function viewCells(text: string, mode: OutputMode, refs?: readonly (number | string)[]): CellView[] {
  let nb: { cells?: RawCell[] };
  try {
    nb = JSON.parse(text);
  } catch {
    throw new ToolError("invalid", { reason: "notebook_not_json" });
  }
  if (!Array.isArray(nb.cells)) throw new ToolError("invalid", { reason: "notebook_no_cells" });
  const cells = nb.cells;
  const wanted = refs?.map((r) => {
    const i = typeof r === "number" ? r : cells.findIndex((c) => c.id === r);
    if (i < 0 || i >= cells.length)
      throw new ToolError("not_found", { reason: "cell", name: JSON.stringify(r), actual: cells.length });
    return i;
  });
  return (wanted ?? cells.map((_, i) => i)).map((index) => {
    const c = cells[index]!;
    const images: CellView["images"] = [];
    const exec = c.cell_type === "code" ? ` [${c.execution_count ?? " "}]` : "";
    const att = c.attachments ? ` attachments: ${Object.keys(c.attachments).join(", ")}` : "";
    const lines = [
      `## cell ${index} ${c.cell_type}${c.id ? ` id=${c.id}` : ""}${exec}${att}`,
      ...lfPieces(joined(c.source)),
    ];
    if (mode !== "none") for (const o of c.outputs ?? []) lines.push(...outputLines(o, mode, images));
    return { index, id: c.id, type: c.cell_type, executionCount: c.execution_count, lines, images };
  });
}
