/**
 * YAML edits made in place: each step replaces, inserts or removes only the source text of the node it
 * targets (found with `yaml`'s Document API, which gives every node's range), so comments, anchors, key
 * order, quoting and blank lines elsewhere stay byte-identical. New text is rendered by `yaml` itself at
 * the target's column. The caller checks the result parses to the expected value.
 */
import type { Document, Pair, ParsedNode, stringify as Stringify } from "yaml";
import { ToolError } from "../errors.js";
import { getIn, isPlainObject, type Segment, type Step } from "./path-expr.js";

type Yaml = typeof import("yaml");
interface Ctx {
  y: Yaml;
  text: string;
  doc: Document.Parsed;
  eol: string;
  indent: number;
}

const column = (t: string, at: number) => at - (t.lastIndexOf("\n", at - 1) + 1);
const lineStart = (t: string, at: number) => t.lastIndexOf("\n", at - 1) + 1;
function lineEndAfter(t: string, at: number): number {
  const nl = t.indexOf("\n", at);
  return nl === -1 ? t.length : nl + 1;
}
/** The end of a node's own text: its value end without the trailing breaks a block node includes. */
function trimmedEnd(t: string, node: ParsedNode): number {
  let end = node.range[1];
  while (end > node.range[0] && /\s/.test(t[end - 1]!)) end--;
  return end;
}

function render(c: Ctx, value: unknown, opts: Parameters<typeof Stringify>[2] = {}): string {
  const s = c.y.stringify(value, { indent: c.indent, lineWidth: 0, ...(opts as object) }).replace(/\n$/, "");
  return s.replace(/\n/g, c.eol);
}
const indentRest = (s: string, col: number, eol: string) => s.split(eol).join(eol + " ".repeat(col));
const isBlock = (n: unknown, y: Yaml) => (y.isMap(n) || y.isSeq(n)) && !(n as { flow?: boolean }).flow;
/**
 * A value that fits on the key's line: scalars and empty collections (JSON is YAML). A string keeps the
 * quotes the old scalar had; a multi-line one is double-quoted (a block scalar would need the column).
 */
function inline(c: Ctx, value: unknown, old?: unknown): string {
  const quote = c.y.isScalar(old) ? old.type : undefined;
  if (typeof value === "string" && quote === "QUOTE_SINGLE" && !/[\r\n]/.test(value))
    return `'${value.replace(/'/g, "''")}'`;
  if (
    typeof value === "object" ||
    (typeof value === "string" && (/[\r\n]/.test(value) || quote === "QUOTE_DOUBLE"))
  )
    return JSON.stringify(value);
  return render(c, value);
}
const isEmptyCollection = (v: unknown) =>
  (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

type Splice = [start: number, end: number, text: string];

function walk(
  c: Ctx,
  path: readonly Segment[],
): { nodes: (ParsedNode | null)[]; pairs: (Pair | undefined)[] } {
  const nodes: (ParsedNode | null)[] = [c.doc.contents];
  const pairs: (Pair | undefined)[] = [undefined];
  for (const s of path) {
    const n = nodes.at(-1);
    if (c.y.isAlias(n)) throw new ToolError("invalid", { reason: "yaml_alias_path", name: n.source });
    if (c.y.isMap(n) && typeof s === "string") {
      const pair = n.items.find((p) => (c.y.isScalar(p.key) ? p.key.value : p.key) === s);
      if (!pair) break;
      nodes.push(pair.value as ParsedNode | null);
      pairs.push(pair as Pair);
    } else if (c.y.isSeq(n) && typeof s === "number" && s < n.items.length) {
      nodes.push(n.items[s] as ParsedNode);
      pairs.push(undefined);
    } else break;
  }
  return { nodes, pairs };
}

/** Replaces the node at `path` (existing) with `value`. */
function replaceNode(c: Ctx, path: readonly Segment[], value: unknown): Splice {
  const { nodes, pairs } = walk(c, path);
  const node = nodes[path.length]!;
  const pair = pairs[path.length];
  const parent = nodes[path.length - 1];
  const scalar = typeof value !== "object" || value === null;
  if (parent && !isBlock(parent, c.y)) {
    // A scalar in a flow collection: only its own text changes (quoted where flow syntax needs it).
    if (!scalar || !node || !c.y.isScalar(node))
      return rerender(c, parent, structuredEdit(parent, path, value));
    const flowSafe = typeof value !== "string" || !/[,[\]{}]/.test(value);
    return [
      node.range[0],
      trimmedEnd(c.text, node),
      flowSafe ? inline(c, value, node) : JSON.stringify(value),
    ];
  }
  const collection = typeof value === "object" && value !== null && !isEmptyCollection(value);
  const keyEnd = pair && c.y.isScalar(pair.key) ? (pair.key as ParsedNode).range[1] : undefined;
  if (!node) {
    // A key without a value ("key:"): the value goes after the colon.
    const colon = c.text.indexOf(":", keyEnd);
    const col = column(c.text, (pair!.key as ParsedNode).range[0]);
    const txt = collection
      ? c.eol + indentRest(" ".repeat(col + c.indent) + render(c, value), col + c.indent, c.eol)
      : ` ${inline(c, value)}`;
    return [colon + 1, colon + 1, txt];
  }
  const end = trimmedEnd(c.text, node);
  // A flow collection stays one: its new value in flow style, in its place.
  if (collection && (c.y.isMap(node) || c.y.isSeq(node)) && node.flow) return rerender(c, node, value);
  if (keyEnd !== undefined && (collection || isBlock(node, c.y))) {
    const col = column(c.text, (pair!.key as ParsedNode).range[0]);
    const txt = collection
      ? `:${c.eol}${" ".repeat(col + c.indent)}${indentRest(render(c, value), col + c.indent, c.eol)}`
      : `: ${inline(c, value)}`;
    return [keyEnd, end, txt];
  }
  if (collection)
    return [node.range[0], end, indentRest(render(c, value), column(c.text, node.range[0]), c.eol)];
  return [node.range[0], end, inline(c, value, node)];
}

/** A flow collection's value with its member at `path`'s last segment set to `value`. */
function structuredEdit(parent: ParsedNode, path: readonly Segment[], value: unknown): unknown {
  const v = parent.toJSON() as Record<string | number, unknown>;
  v[path.at(-1)!] = value;
  return v;
}

/** Re-renders a whole flow collection (its inner layout is one line of flow text anyway). */
function rerender(c: Ctx, node: ParsedNode, value?: unknown): Splice {
  const v = value ?? node.toJSON();
  return [
    node.range[0],
    trimmedEnd(c.text, node),
    render(c, v, { collectionStyle: "flow", flowCollectionPadding: false }),
  ];
}

function addNode(c: Ctx, path: readonly Segment[], value: unknown, expected: unknown): Splice {
  const { nodes } = walk(c, path);
  const depth = nodes.length - 1;
  const at = nodes[depth];
  const key = path[depth]!;
  let nested = value;
  for (const s of path.slice(depth + 1).reverse()) nested = { [s as string]: nested };
  const holder = getIn(expected, path.slice(0, depth));
  if ((c.y.isMap(at) || c.y.isSeq(at)) && at.flow) return rerender(c, at, holder);
  if (!at || !isBlock(at, c.y) || (at as { items: unknown[] }).items.length === 0) {
    if (depth === 0) throw new ToolError("invalid", { reason: "yaml_single_value" });
    return replaceNode(c, path.slice(0, depth), holder);
  }
  const items = (at as { items: unknown[] }).items;
  const last = items.at(-1) as Pair | ParsedNode;
  const lastNode = (c.y.isPair(last) ? (last.value ?? last.key) : last) as ParsedNode;
  const insertAt = lineEndAfter(c.text, trimmedEnd(c.text, lastNode));
  const col = column(c.text, at.range[0]);
  const body = c.y.isMap(at) ? render(c, { [key as string]: nested }) : render(c, [nested]);
  const lead = insertAt === c.text.length && !c.text.endsWith("\n") ? c.eol : "";
  return [insertAt, insertAt, `${lead}${" ".repeat(col)}${indentRest(body, col, c.eol)}${c.eol}`];
}

function removeNode(c: Ctx, path: readonly Segment[]): Splice {
  const { nodes, pairs } = walk(c, path);
  const parent = nodes[path.length - 1]!;
  const items = (parent as unknown as { items: unknown[] }).items;
  if (!isBlock(parent, c.y)) {
    const v = parent.toJSON() as Record<string, unknown> | unknown[];
    if (Array.isArray(v)) v.splice(path.at(-1) as number, 1);
    else delete v[path.at(-1) as string];
    return rerender(c, parent, v);
  }
  if (items.length === 1) return replaceNode(c, path.slice(0, -1), c.y.isMap(parent) ? {} : []);
  const pair = pairs[path.length];
  const node = nodes[path.length];
  const first = pair ? (pair.key as ParsedNode).range[0] : c.text.lastIndexOf("-", node!.range[0]);
  const last = node ?? (pair!.key as ParsedNode);
  const index = items.indexOf(pair ?? node);
  const start = lineStart(c.text, first);
  if (c.text.slice(start, first).trim() === "")
    return [start, lineEndAfter(c.text, trimmedEnd(c.text, last)), ""];
  // The first key of a map on a "- " line: remove up to the next key, keeping the dash.
  const next = items[index + 1] as Pair;
  return [first, (next.key as ParsedNode).range[0], ""];
}

/**
 * Applies one step to YAML text, given its parsed document (parsed once by the caller, which parses the
 * result once more to check it); `expected` is the document's value after the step.
 */
export function yamlStep(y: Yaml, text: string, doc: Document.Parsed, step: Step, expected: unknown): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const c: Ctx = { y, text, doc, eol, indent: detectYamlIndent(text) };
  const exists = doc.hasIn(step.path);
  let s: Splice;
  if (step.op === "delete") {
    // The value is there (the caller checked) but not written at this path: an alias on the way (walk
    // says which) or a merge key (<<) brings it.
    if (!exists) walk(c, step.path);
    if (!exists) throw new ToolError("invalid", { reason: "yaml_merge_key" });
    s = removeNode(c, step.path);
  } else if (exists) s = replaceNode(c, step.path, step.value);
  else s = addNode(c, step.path, step.value, expected);
  return text.slice(0, s[0]) + s[2] + text.slice(s[1]);
}

function detectYamlIndent(text: string): number {
  const m = /\n( +)[^\s#-]/.exec(text);
  return m ? Math.min(8, m[1]!.length) : 2;
}
