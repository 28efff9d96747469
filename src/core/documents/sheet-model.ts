import { ToolError } from "../errors.js";
import type { CellRange } from "./cells.js";

/** A sheet's non-empty cells inside the requested rows: row -> column -> text. */
export type Cells = Map<number, Map<number, string>>;

/** What a spreadsheet reader gives back: the sheet names, and one sheet's cells (within `rows`). */
export interface SheetRead {
  names: string[];
  name: string;
  cells: Cells;
  /** The sheet's used range: every non-empty cell (or what the file declares). */
  used: CellRange | undefined;
}

/** Which sheet to read: by name, else by 1-based number; the first by default. */
export function pickSheet(names: readonly string[], sheet: string | undefined): number {
  if (sheet === undefined) return 0;
  const byName = names.indexOf(sheet);
  if (byName >= 0) return byName;
  if (/^\d+$/.test(sheet) && Number(sheet) >= 1 && Number(sheet) <= names.length) return Number(sheet) - 1;
  throw new ToolError("invalid", { reason: "doc_no_sheet", name: sheet, items: names });
}

/** Widens the used range to hold a cell. */
export function grow(used: CellRange | undefined, col: number, row: number): CellRange {
  if (!used) return { c1: col, r1: row, c2: col, r2: row };
  return {
    c1: Math.min(used.c1, col),
    r1: Math.min(used.r1, row),
    c2: Math.max(used.c2, col),
    r2: Math.max(used.r2, row),
  };
}
