/**
 * Jupyter notebooks (nbformat 4) edited as cells. An edit rewrites only the text of the cells it names,
 * at their byte ranges in the file (found with jsonc-parser's syntax tree): every other cell, output and
 * the file's own indentation stay byte-identical. The result must validate against the nbformat 4 JSON
 * schema (nbformat-v4.schema.json, with ajv) and the id rules of its minor version, or nothing is written.
 */
import { randomBytes } from "node:crypto";
import type { Node } from "jsonc-parser";
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";
import { shallowTree } from "./json-shallow.js";
import { indentUnit, jsonStep } from "./json-splice.js";

export type CellType = "code" | "markdown" | "raw";
export type CellRef = number | string;

export type NotebookEdit =
  | { cell: CellRef; source?: string; type?: CellType }
  | { insert: { at: number; type: CellType; source: string } }
  | { delete: CellRef };

type JsoncParser = typeof import("jsonc-parser");

interface RawCell {
  cell_type?: unknown;
  id?: unknown;
  source?: unknown;
}

/** The notebook's top: a shallow syntax tree (cell spans) and its parsed value (cell types and ids). */
interface Layout {
  root: Node;
  cells: Node;
  raw: RawCell[];
  minor: number;
}

/**
 * Parsed twice, both fast on a 10 MB notebook: JSON.parse (native) for the values and the syntax check,
 * then shallowTree for where each cell's text is. Only an edited cell's own text goes through jsonc-parser.
 */
function layout(text: string): Layout {
  let nb: { cells?: unknown; nbformat_minor?: unknown };
  try {
    nb = JSON.parse(text);
  } catch {
    throw new ToolError("invalid", { reason: "notebook_not_json" });
  }
  const root = shallowTree(text, "cells");
  const member = root?.children?.find((m) => m.children?.[0]?.value === "cells");
  const cells = member?.children?.[1];
  if (!root || !Array.isArray(nb.cells) || cells?.type !== "array")
    throw new ToolError("invalid", { reason: "notebook_no_cells" });
  const minor = nb.nbformat_minor;
  return { root, cells, raw: nb.cells as RawCell[], minor: typeof minor === "number" ? minor : 0 };
}

const end = (n: Node) => n.offset + n.length;
const lineStart = (t: string, at: number) => t.lastIndexOf("\n", at - 1) + 1;

/** The index of the cell `ref` names (an index, or a cell id). */
function cellIndex(l: Layout, ref: CellRef): number {
  const n = l.raw.length;
  if (typeof ref === "number") {
    if (Number.isInteger(ref) && ref >= 0 && ref < n) return ref;
    throw new ToolError("not_found", { reason: "cell", name: String(ref), actual: n });
  }
  const i = l.raw.findIndex((c) => c?.id === ref);
  if (i === -1) throw new ToolError("not_found", { reason: "cell_id", name: String(ref) });
  return i;
}

/** Source text as nbformat writes it: lines that keep their "\n". */
export function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function newId(l: Layout): string {
  const taken = new Set(l.raw.map((c) => c?.id));
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
}

/** Rewrites one cell's text: source, type, and (for a changed code cell) cleared outputs. */
function editCell(
  p: JsoncParser,
  text: string,
  l: Layout,
  e: { cell: CellRef; source?: string; type?: CellType },
  keepOutputs: boolean,
  unit: string,
): string {
  const i = cellIndex(l, e.cell);
  const node = l.cells.children![i]!;
  // The cell with its line's indentation, so new lines are indented as its own.
  const ls = lineStart(text, node.offset);
  const from = text.slice(ls, node.offset).trim() === "" ? ls : node.offset;
  let cell = text.slice(from, end(node));
  const old = l.raw[i]?.cell_type as CellType;
  const type = e.type ?? old;
  const set = (path: string[], value: unknown) => {
    cell = jsonStep(p, cell, { op: "set", path, value }, unit);
  };
  const drop = (key: string) => {
    if (p.findNodeAtLocation(p.parseTree(cell)!, [key]))
      cell = jsonStep(p, cell, { op: "delete", path: [key] }, unit);
  };
  if (e.source !== undefined) {
    const wasArray = typeof l.raw[i]?.source !== "string";
    set(["source"], wasArray ? sourceLines(e.source) : e.source);
  }
  if (type !== old) set(["cell_type"], type);
  if (type === "code" && old !== "code") {
    drop("attachments");
    set(["execution_count"], null);
    set(["outputs"], []);
  } else if (type !== "code" && old === "code") {
    drop("outputs");
    drop("execution_count");
  } else if (type === "code" && !keepOutputs && (e.source !== undefined || e.type !== undefined)) {
    set(["execution_count"], null);
    set(["outputs"], []);
  }
  return text.slice(0, from) + cell + text.slice(end(node));
}

function insertCell(
  p: JsoncParser,
  text: string,
  l: Layout,
  ins: { at: number; type: CellType; source: string },
  unit: string,
): string {
  const kids = l.cells.children ?? [];
  if (!Number.isInteger(ins.at) || ins.at < 0 || ins.at > kids.length)
    throw new ToolError("invalid", { reason: "notebook_insert_at", actual: ins.at, limit: kids.length });
  const cell: Record<string, unknown> = { cell_type: ins.type };
  if (ins.type === "code") cell.execution_count = null;
  if (l.minor >= 5) cell.id = newId(l);
  cell.metadata = {};
  if (ins.type === "code") cell.outputs = [];
  cell.source = sourceLines(ins.source);
  return spliceInsert(p, text, l, ins.at, cell, unit);
}

/** A new cell placed before the cell now at `at` (or after the last), on lines of its own. */
function spliceInsert(
  p: JsoncParser,
  text: string,
  l: Layout,
  at: number,
  cell: unknown,
  unit: string,
): string {
  const kids = l.cells.children ?? [];
  if (at === kids.length)
    return jsonStep(p, text, { op: "set", path: ["cells", at], value: cell }, unit, l.root);
  const next = kids[at]!;
  const ls = lineStart(text, next.offset);
  const ownLine = text.slice(ls, next.offset).trim() === "";
  const indent = ownLine ? text.slice(ls, next.offset) : "";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const body = lfPieces(JSON.stringify(cell, null, unit)).join(eol + indent);
  const sep = ownLine ? `,${eol}${indent}` : ", ";
  return text.slice(0, next.offset) + body + sep + text.slice(next.offset);
}

function deleteCell(p: JsoncParser, text: string, l: Layout, ref: CellRef): string {
  const i = cellIndex(l, ref);
  return jsonStep(p, text, { op: "delete", path: ["cells", i] }, undefined, l.root);
}

/** The notebook text after `edits` (in order), validated; throws (nothing to write) otherwise. */
export async function editNotebookText(
  text: string,
  edits: readonly NotebookEdit[],
  keepOutputs: boolean,
): Promise<string> {
  const p = await import("jsonc-parser");
  const unit = indentUnit(text);
  let out = text;
  for (const e of edits) {
    const l = layout(out);
    if ("insert" in e) out = insertCell(p, out, l, e.insert, unit);
    else if ("delete" in e) out = deleteCell(p, out, l, e.delete);
    else out = editCell(p, out, l, e, keepOutputs, unit);
  }
  await validateNotebook(out);
  return out;
}

/** The compiled schema, made once per process on first use (compiling takes ~20 ms; it never changes). */
let validator: Promise<(v: unknown) => string | undefined> | undefined;

async function compile(): Promise<(v: unknown) => string | undefined> {
  const [{ Ajv }, schema] = await Promise.all([
    import("ajv"),
    import("./nbformat-v4.schema.json", { with: { type: "json" } }),
  ]);
  const check = new Ajv({ strict: false, allErrors: false }).compile(schema.default);
  return (v) =>
    check(v) ? undefined : `${check.errors?.[0]?.instancePath || "/"} ${check.errors?.[0]?.message}`;
}

/** Refuses text that is not a valid nbformat 4 notebook (schema, and ids: unique, required from 4.5). */
export async function validateNotebook(text: string): Promise<void> {
  let nb: { nbformat_minor?: number; cells?: { id?: string }[] };
  try {
    nb = JSON.parse(text);
  } catch {
    throw new ToolError("invalid", { reason: "result_not_json" });
  }
  validator ??= compile();
  const problem = (await validator)(nb);
  const ids = (nb.cells ?? []).map((c) => c.id);
  const idRule =
    (nb.nbformat_minor ?? 0) >= 5
      ? ids.every((id) => id !== undefined) && new Set(ids).size === ids.length
      : ids.every((id) => id === undefined);
  if (problem || !idRule)
    throw new ToolError("invalid", { reason: "result_not_notebook", ...(problem ? { cause: problem } : {}) });
}
