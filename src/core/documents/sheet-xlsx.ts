import { parseCell, parseRange } from "./cells.js";
import { DocError } from "./doc-error.js";
import { type Cells, grow, pickSheet, type SheetRead } from "./sheet-model.js";
import { attr, decodeXml, relationships, textsOf } from "./xml-text.js";
import { entryText, unzipBounded } from "./zip.js";

/** The shared strings table: each `<si>`'s text runs joined (phonetic runs left out). */
function sharedStrings(xml: string | undefined): string[] {
  if (xml === undefined) return [];
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    textsOf(m[1]!.replace(/<rPh\b[\s\S]*?<\/rPh>/g, ""), "t"),
  );
}

function cellValue(attrs: string, body: string, strings: readonly string[]): string {
  const type = attr(attrs, "t");
  if (type === "inlineStr") return textsOf(body, "t");
  const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
  if (v === undefined) return "";
  if (type === "s") return strings[Number(v)] ?? "";
  if (type === "b") return v === "1" ? "TRUE" : "FALSE";
  return decodeXml(v);
}

/**
 * One worksheet of an .xlsx: values as stored (numbers and dates as their stored numbers, formulas as their
 * cached results), rows outside `rows` skipped; the scan stops past `rows.last` when the sheet declares its
 * used range (`<dimension>`).
 */
export function readXlsx(
  data: Uint8Array,
  sheet: string | undefined,
  rows: { first: number; last: number },
  maxInflated: number,
): SheetRead {
  const files = unzipBounded(data, (n) => n.endsWith(".xml") || n.endsWith(".rels"), maxInflated);
  const workbook = entryText(files, "xl/workbook.xml");
  if (workbook === undefined) throw new DocError("invalid", "it is not an Excel (.xlsx) workbook");
  const rels = relationships(entryText(files, "xl/_rels/workbook.xml.rels"), "xl/");
  const list = [...workbook.matchAll(/<sheet\b([^>]*)\/?>/g)].map((m) => ({
    name: attr(m[1]!, "name") ?? "",
    part: rels.get(attr(m[1]!, "r:id") ?? "") ?? "",
  }));
  const names = list.map((s) => s.name);
  const index = pickSheet(names, sheet);
  const xml = entryText(files, list[index]?.part ?? "") ?? "";
  const strings = sharedStrings(entryText(files, "xl/sharedStrings.xml"));
  const declared = attr(/<dimension\b([^>]*)\/?>/.exec(xml)?.[1] ?? "", "ref");
  let used = declared?.includes(":") ? parseRange(declared) : undefined;
  const early = used !== undefined;
  const cells: Cells = new Map();
  let nextRow = 1;
  for (const rm of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const r = Number(attr(rm[1]!, "r") ?? nextRow);
    nextRow = r + 1;
    if (early && r > rows.last) break;
    let col = 0;
    for (const cm of (rm[2] ?? "").matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const at = parseCell(attr(cm[1]!, "r") ?? "");
      col = at ? at.col : col;
      const text = cellValue(cm[1]!, cm[2] ?? "", strings);
      if (text !== "") {
        if (!early) used = grow(used, col, r);
        if (r >= rows.first && r <= rows.last) {
          const row = cells.get(r) ?? new Map<number, string>();
          cells.set(r, row);
          row.set(col, text);
        }
      }
      col++;
    }
  }
  return { names, name: names[index] ?? "", cells, used };
}
