import { ToolError } from "../errors.js";
import { parseCell, parseRange } from "./cells.js";
import { type Cells, grow, pickSheet, type SheetRead } from "./sheet-model.js";
import { attr, decodeXml, relationships, SHEET_TEXT, textsOf } from "./xml-text.js";
import { entryText, unzipBounded } from "./zip.js";

/**
 * The shared strings table, read on demand: the start of every `<si>` is found in the bytes once, and only
 * the strings the rows read use are decoded (a 10 MB workbook has ~10^5 strings; a range uses a few).
 */
function sharedStrings(bytes: Uint8Array | undefined): (i: number) => string {
  if (bytes === undefined) return () => "";
  const xml = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  for (let at = xml.indexOf("<si>"); at >= 0; at = xml.indexOf("<si>", at + 4)) starts.push(at + 4);
  return (i) => {
    const from = starts[i];
    if (from === undefined) return "";
    const to = xml.indexOf("</si>", from);
    const si = xml.toString("utf8", from, to < 0 ? xml.length : to);
    return textsOf(si.replace(/<rPh\b[\s\S]*?<\/rPh>/g, ""), SHEET_TEXT);
  };
}

function cellValue(attrs: string, body: string, strings: (i: number) => string): string {
  const type = attr(attrs, "t");
  if (type === "inlineStr") return textsOf(body, SHEET_TEXT);
  const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
  if (v === undefined) return "";
  if (type === "s") return strings(Number(v));
  if (type === "b") return v === "1" ? "TRUE" : "FALSE";
  return decodeXml(v);
}

/** The non-empty cells of one row's XML, with their 0-based columns. */
function readRow(
  xml: string,
  r: number,
  strings: (i: number) => string,
  put: (col: number, text: string) => void,
) {
  let col = 0;
  for (const cm of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const at = parseCell(attr(cm[1]!, "r") ?? "");
    col = at && at.row === r ? at.col : col;
    const text = cellValue(cm[1]!, cm[2] ?? "", strings);
    if (text !== "") put(col, text);
    col++;
  }
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
  // The workbook's parts first, then the one sheet asked for: other sheets are never inflated.
  const part = (n: string) => n.endsWith(".rels") || (n.endsWith(".xml") && !n.startsWith("xl/worksheets/"));
  const files = unzipBounded(data, part, maxInflated);
  const workbook = entryText(files, "xl/workbook.xml");
  if (workbook === undefined) throw new ToolError("invalid", { reason: "doc_unreadable", expected: "xlsx" });
  const rels = relationships(entryText(files, "xl/_rels/workbook.xml.rels"), "xl/");
  const list = [...workbook.matchAll(/<sheet\b([^>]*)\/?>/g)].map((m) => ({
    name: attr(m[1]!, "name") ?? "",
    part: rels.get(attr(m[1]!, "r:id") ?? "") ?? "",
  }));
  const names = list.map((s) => s.name);
  const index = pickSheet(names, sheet);
  const sheetPart = list[index]?.part ?? "";
  const sheetBytes =
    unzipBounded(data, (n) => n === sheetPart, maxInflated).get(sheetPart) ?? new Uint8Array();
  const xml = Buffer.from(sheetBytes.buffer, sheetBytes.byteOffset, sheetBytes.byteLength);
  const strings = sharedStrings(files.get("xl/sharedStrings.xml"));
  // The sheet is scanned as bytes, row by row: only the rows read are decoded to text.
  const dataAt = Math.max(0, xml.indexOf("<sheetData"));
  const dataEnd = xml.indexOf("</sheetData>") >>> 0;
  const declared = attr(/<dimension\b([^>]*)\/?>/.exec(xml.toString("utf8", 0, dataAt))?.[1] ?? "", "ref");
  let used = declared?.includes(":") ? parseRange(declared) : undefined;
  const early = used !== undefined;
  const cells: Cells = new Map();
  let nextRow = 1;
  for (let at = xml.indexOf("<row", dataAt); at >= 0 && at < dataEnd; at = xml.indexOf("<row", at)) {
    const open = xml.indexOf(">", at);
    if (open < 0) break;
    const r = Number(attr(xml.toString("utf8", at + 4, open), "r") ?? nextRow);
    nextRow = r + 1;
    if (early && r > rows.last) break;
    const close = xml[open - 1] === 0x2f ? open : xml.indexOf("</row>", open);
    if (close < 0) break;
    if (close > open && (!early || r >= rows.first))
      readRow(xml.toString("utf8", open + 1, close), r, strings, (col, text) => {
        if (!early) used = grow(used, col, r);
        if (r >= rows.first && r <= rows.last) {
          const row = cells.get(r) ?? new Map<number, string>();
          cells.set(r, row);
          row.set(col, text);
        }
      });
    at = close + 1;
  }
  return { names, name: names[index] ?? "", cells, used };
}
