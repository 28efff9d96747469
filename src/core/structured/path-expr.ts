/**
 * Paths into a parsed document ("a.b[2].c", `a["x.y"]`) and the edits structured tools apply at them,
 * on plain values: the expected result every format-preserving edit is checked against.
 */
import { ToolError } from "../errors.js";

export type Segment = string | number;

export type StructuredEdit =
  | { set: string; value: unknown }
  | { delete: string }
  | { merge: string; value: unknown };

const SEGMENT = /\.?([A-Za-z0-9_$@:/*+-][^.[\]]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\['([^']*)'\]/y;

/** Parses a path; "" (or "$") is the document itself. */
export function parsePath(expr: string): Segment[] {
  const src = expr.trim().replace(/^\$\.?/, "");
  const out: Segment[] = [];
  SEGMENT.lastIndex = 0;
  while (SEGMENT.lastIndex < src.length) {
    const at = SEGMENT.lastIndex;
    const m = SEGMENT.exec(src);
    if (!m || (at > 0 && m[1] !== undefined && src[at] !== "."))
      throw new ToolError("invalid", { reason: "key_path_syntax", name: expr, actual: at + 1 });
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(JSON.parse(m[3]) as string);
    else out.push(m[4]!);
  }
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function show(path: readonly Segment[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

/** The value at `path`, or `undefined`. */
export function getIn(root: unknown, path: readonly Segment[]): unknown {
  let v = root;
  for (const s of path) {
    if (Array.isArray(v) && typeof s === "number") v = v[s];
    else if (isPlainObject(v) && typeof s === "string" && Object.hasOwn(v, s)) v = v[s];
    else return undefined;
  }
  return v;
}

/** The container that holds `path`'s last segment (created on the way for set), or a refusal. */
function parentOf(root: unknown, path: readonly Segment[], create: boolean): unknown {
  let v = root;
  for (const [i, s] of path.slice(0, -1).entries()) {
    let next = getIn(v, [s]);
    if (next === undefined && create && isPlainObject(v) && typeof s === "string") {
      next = {};
      v[s] = next;
    }
    if (next === undefined || typeof next !== "object" || next === null)
      throw new ToolError("not_found", { reason: "no_container", name: show(path.slice(0, i + 1)) });
    v = next;
  }
  return v;
}

/** Sets `path` in `root` (mutated); an array index may be the length (append). */
function setIn(root: unknown, path: readonly Segment[], value: unknown): void {
  const parent = parentOf(root, path, true);
  const last = path.at(-1)!;
  if (Array.isArray(parent) && typeof last === "number" && last <= parent.length) parent[last] = value;
  else if (isPlainObject(parent) && typeof last === "string") parent[last] = value;
  else throw new ToolError("invalid", { reason: "set_past_end", name: show(path) });
}

function deleteIn(root: unknown, path: readonly Segment[]): void {
  const parent = parentOf(root, path, false);
  const last = path.at(-1)!;
  if (getIn(parent, [last]) === undefined)
    throw new ToolError("not_found", { reason: "delete_missing", name: show(path) });
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete (parent as Record<string, unknown>)[last as string];
}

/**
 * A merge as leaf sets: objects merge key by key (recursively); anything else replaces. An empty path is the
 * document (which must then be an object).
 */
export function mergeSets(root: unknown, path: readonly Segment[], value: unknown): [Segment[], unknown][] {
  const here = path.length === 0 ? root : getIn(root, path);
  if (!isPlainObject(value) || !isPlainObject(here)) {
    if (path.length === 0) throw new ToolError("invalid", { reason: "merge_needs_objects" });
    return [[[...path], value]];
  }
  return Object.entries(value).flatMap(([k, v]) => mergeSets(root, [...path, k], v));
}

/** One primitive step: every edit becomes a list of these (a merge becomes its leaf sets). */
export type Step = { op: "set"; path: Segment[]; value: unknown } | { op: "delete"; path: Segment[] };

export function stepsOf(root: unknown, edit: StructuredEdit): Step[] {
  if ("set" in edit) return [{ op: "set", path: nonEmpty(edit.set), value: edit.value }];
  if ("delete" in edit) return [{ op: "delete", path: nonEmpty(edit.delete) }];
  return mergeSets(root, parsePath(edit.merge), edit.value).map(([path, value]) => ({
    op: "set" as const,
    path,
    value,
  }));
}

function nonEmpty(expr: string): Segment[] {
  const p = parsePath(expr);
  if (p.length === 0) throw new ToolError("invalid", { reason: "path_below_document" });
  return p;
}

/** Applies one step to a plain value (mutated): what the file must parse to afterwards. */
export function applyStep(root: unknown, step: Step): void {
  if (step.op === "set") setIn(root, step.path, structuredClone(step.value));
  else deleteIn(root, step.path);
}
