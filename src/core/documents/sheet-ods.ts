import { ToolError } from "../errors.js";
import { type Cells, grow, pickSheet, type SheetRead } from "./sheet-model.js";
import { attr, decodeXml } from "./xml-text.js";
import { entryText, unzipBounded } from "./zip.js";

/** A cell's paragraphs as text (`<text:s/>` spaces, `<text:tab/>` tabs, other markup dropped). */
function cellText(body: string): string {
  const paragraphs = [...body.matchAll(/<text:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/text:p>)/g)].map((m) =>
    decodeXml(
      (m[1] ?? "")
        .replace(/<text:s\b([^>]*)\/>/g, (_, a: string) => " ".repeat(Number(attr(a, "text:c") ?? 1)))
        .replace(/<text:tab\b[^>]*\/>/g, "\t")
        .replace(/<text:line-break\b[^>]*\/>/g, "\n")
        .replace(/<[^>]+>/g, ""),
    ),
  );
  return paragraphs.join("\n");
}

/** Repeats are capped: a sheet that declares a million blank rows or columns costs nothing. */
const repeat = (attrs: string, name: string) => Math.max(1, Number(attr(attrs, name) ?? 1) || 1);

/** One table of an OpenDocument spreadsheet (.ods): displayed text of each cell, rows outside `rows` skipped. */
export function readOds(
  data: Uint8Array,
  sheet: string | undefined,
  rows: { first: number; last: number },
  maxInflated: number,
): SheetRead {
  const files = unzipBounded(data, (n) => n === "content.xml", maxInflated);
  const content = entryText(files, "content.xml");
  if (content === undefined) throw new ToolError("invalid", { reason: "doc_unreadable", expected: "ods" });
  const tables = [...content.matchAll(/<table:table\b([^>]*)>([\s\S]*?)<\/table:table>/g)];
  const names = tables.map((t) => attr(t[1]!, "table:name") ?? "");
  const index = pickSheet(names, sheet);
  const body = tables[index]?.[2] ?? "";
  const cells: Cells = new Map();
  let used: SheetRead["used"];
  let r = 1;
  for (const rm of body.matchAll(/<table:table-row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
    const times = repeat(rm[1]!, "table:number-rows-repeated");
    const row = new Map<number, string>();
    let c = 0;
    const cellRe =
      /<table:(?:covered-)?table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g;
    for (const cm of (rm[2] ?? "").matchAll(cellRe)) {
      const span = repeat(cm[1]!, "table:number-columns-repeated");
      const text = cm[2] ? cellText(cm[2]) : "";
      if (text !== "") for (let k = 0; k < Math.min(span, 1024); k++) row.set(c + k, text);
      c += span;
    }
    if (row.size > 0) {
      for (const col of row.keys()) used = grow(grow(used, col, r), col, r + Math.min(times, 1 << 20) - 1);
      for (let k = r; k < r + times && k <= rows.last; k++) if (k >= rows.first) cells.set(k, row);
    }
    r += times;
  }
  return { names, name: names[index] ?? "", cells, used };
}
