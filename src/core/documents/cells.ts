import { ToolError } from "../errors.js";

/** Column letters for a 0-based column: 0 -> A, 26 -> AA. */
export function columnName(col: number): string {
  let s = "";
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** A cell reference "B12" as a 0-based column and 1-based row. */
export function parseCell(ref: string): { col: number; row: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
  if (!m) return undefined;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { col: col - 1, row: Number(m[2]) };
}

export interface CellRange {
  c1: number;
  r1: number;
  c2: number;
  r2: number;
}

/** "B2:F40" (or one cell "C7") as a range; undefined when not given. */
export function parseRange(spec: string | undefined): CellRange | undefined {
  if (spec === undefined || spec.trim() === "") return undefined;
  const [a, b = a] = spec.split(":");
  const from = parseCell(a!);
  const to = parseCell(b!);
  if (!from || !to || to.col < from.col || to.row < from.row)
    throw new ToolError("invalid", {
      reason: "doc_spec",
      parameter: "range",
      actual: spec,
      expected: "cells",
    });
  return { c1: from.col, r1: from.row, c2: to.col, r2: to.row };
}

export const rangeName = (r: CellRange) => `${columnName(r.c1)}${r.r1}:${columnName(r.c2)}${r.r2}`;
