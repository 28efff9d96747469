import { columnName, parseRange, rangeName } from "./cells.js";
import type { DocumentRequest, DocumentResult } from "./protocol.js";
import { readCsv } from "./sheet-csv.js";
import { readOds } from "./sheet-ods.js";
import { readXlsx } from "./sheet-xlsx.js";

/** A Markdown table cell: one line, pipes escaped. */
const cellText = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");

/**
 * One sheet of an .xlsx, .ods or .csv as Markdown table rows ("| 12 | a | b |": the row number, then the
 * cells of the range's columns), at most `maxUnits` rows; `rest` holds the first row not shown.
 */
export async function readSheet(req: DocumentRequest): Promise<DocumentResult> {
  const asked = parseRange(req.range);
  // Rows past this are never materialised (a reader may stop early).
  const rows = { first: asked?.r1 ?? 1, last: (asked?.r1 ?? 1) + req.maxUnits - 1 };
  const read =
    req.ext === ".csv" || req.ext === ".tsv"
      ? await readCsv(req.data, req.ext, rows, req.encoding)
      : req.ext === ".ods"
        ? readOds(req.data, req.sheet, rows, req.maxInflated)
        : readXlsx(req.data, req.sheet, rows, req.maxInflated);
  const used = read.used;
  const range = asked ?? used;
  const base = { kind: "sheet" as const, sheets: read.names, sheet: read.name, rest: [] as number[] };
  if (!range || !used) return { ...base, total: 0, units: [], usedRange: undefined };
  const lastRow = Math.min(range.r2, used.r2);
  const units = [];
  for (let r = range.r1; r <= lastRow && units.length < req.maxUnits; r++) {
    const row = read.cells.get(r);
    const cols = [];
    for (let c = range.c1; c <= range.c2; c++) cols.push(cellText(row?.get(c) ?? ""));
    units.push({ n: r, text: `| ${r} | ${cols.join(" | ")} |` });
  }
  const next = range.r1 + units.length;
  return {
    ...base,
    total: used.r2 - used.r1 + 1,
    units,
    rest: next <= lastRow ? [next, lastRow] : [],
    usedRange: rangeName(used),
    columns: [columnName(range.c1), columnName(range.c2)],
  };
}
