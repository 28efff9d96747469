/**
 * JSON/JSONC edits made in place over jsonc-parser's syntax tree: only the targeted member's text is
 * replaced, added or removed, rendered at its line's indentation, so comments and the layout of every
 * other member stay byte-identical (jsonc-parser's own `modify` re-formats whole lines around an edit).
 */
import type { Node } from "jsonc-parser";
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";
import type { Segment, Step } from "./path-expr.js";

type JsoncParser = typeof import("jsonc-parser");
type Splice = [start: number, end: number, text: string];

interface Ctx {
  text: string;
  unit: string;
  eol: string;
}

const end = (n: Node) => n.offset + n.length;
const lineStart = (t: string, at: number) => t.lastIndexOf("\n", at - 1) + 1;
const indentAt = (t: string, at: number) => /^[ \t]*/.exec(t.slice(lineStart(t, at), at))![0];
const oneLine = (c: Ctx, n: Node) => !c.text.slice(n.offset, end(n)).includes("\n");

/** `value` as JSON whose continuation lines sit under `indent` (compact inside a one-line container). */
function render(c: Ctx, value: unknown, indent: string, compact: boolean): string {
  if (compact) return JSON.stringify(value);
  return lfPieces(JSON.stringify(value, null, c.unit)).join(c.eol + indent);
}

function member(c: Ctx, key: Segment, value: unknown, indent: string, compact: boolean): string {
  const v = render(c, value, indent, compact);
  return typeof key === "string" ? `${JSON.stringify(key)}: ${v}` : v;
}

/** The deepest node on `path` and how many segments it covers. */
function deepest(p: JsoncParser, root: Node, path: readonly Segment[]): { node: Node; depth: number } {
  for (let d = path.length; d > 0; d--) {
    const n = p.findNodeAtLocation(root, path.slice(0, d) as Segment[]);
    if (n) return { node: n, depth: d };
  }
  return { node: root, depth: 0 };
}

function nested(path: readonly Segment[], value: unknown): unknown {
  let v = value;
  for (const s of [...path].reverse()) v = { [s as string]: v };
  return v;
}

function setSplice(c: Ctx, p: JsoncParser, root: Node, path: readonly Segment[], value: unknown): Splice[] {
  const { node, depth } = deepest(p, root, path);
  if (depth === path.length) {
    const compact = node.parent ? oneLine(c, node.parent) : false;
    return [[node.offset, end(node), render(c, value, indentAt(c.text, node.offset), compact)]];
  }
  if (node.type !== "object" && node.type !== "array")
    throw new ToolError("invalid", { reason: "path_through_scalar" });
  const key = path[depth]!;
  const inner = nested(path.slice(depth + 1), value);
  const kids = node.children ?? [];
  const compact = oneLine(c, node);
  if (kids.length === 0) {
    // "[]" is one line whatever its container's layout: that decides.
    const flat = node.parent ? oneLine(c, node.parent) : false;
    const open = node.type === "object" ? "{" : "[";
    const close = node.type === "object" ? "}" : "]";
    const base = indentAt(c.text, node.offset);
    if (flat) return [[node.offset, end(node), `${open}${member(c, key, inner, base, true)}${close}`]];
    const ind = base + c.unit;
    return [
      [
        node.offset,
        end(node),
        `${open}${c.eol}${ind}${member(c, key, inner, ind, false)}${c.eol}${base}${close}`,
      ],
    ];
  }
  const last = kids.at(-1)!;
  if (compact) return [[end(last), end(last), `, ${member(c, key, inner, "", true)}`]];
  // The new member goes on its own line after the last one (after any comment that ends that line).
  const ind = indentAt(c.text, last.offset);
  const nl = c.text.indexOf("\n", end(last));
  const lineEnd = nl === -1 ? c.text.length : c.text[nl - 1] === "\r" ? nl - 1 : nl;
  const tail = c.text.slice(end(last), lineEnd);
  const at = /^\s*(\/\/.*|\/\*.*\*\/\s*)?$/.test(tail) ? lineEnd : end(last);
  return [
    [at, at, `${c.eol}${ind}${member(c, key, inner, ind, false)}`],
    [end(last), end(last), ","],
  ];
}

function deleteSplice(c: Ctx, p: JsoncParser, root: Node, path: readonly Segment[]): Splice[] {
  const target = p.findNodeAtLocation(root, path as Segment[]);
  if (!target) throw new ToolError("not_found", { reason: "delete_missing" });
  // An object member is its property node (key and value).
  const node = target.parent?.type === "property" ? target.parent : target;
  const container = node.parent!;
  const kids = container.children!;
  const i = kids.indexOf(node);
  if (kids.length === 1)
    return [[container.offset, end(container), container.type === "object" ? "{}" : "[]"]];
  const from = lineStart(c.text, node.offset);
  const after = /^\s*,?[ \t]*(\r?\n|$)/.exec(c.text.slice(end(node)));
  const ownLines = c.text.slice(from, node.offset).trim() === "" && after !== null;
  if (ownLines && i < kids.length - 1) return [[from, end(node) + after[0].length, ""]];
  if (ownLines) {
    // The last member: its lines go, and so does the comma after the one before it.
    const comma = c.text.indexOf(",", end(kids[i - 1]!));
    return [
      [from, end(node) + after[0].length, ""],
      [comma, comma + 1, ""],
    ];
  }
  return i > 0 ? [[end(kids[i - 1]!), end(node), ""]] : [[node.offset, kids[1]!.offset, ""]];
}

/** The indentation of the text's first indented line (a tab, or its spaces); two spaces without one. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text)?.[1];
  if (m === undefined) return "  ";
  return m.startsWith("\t") ? "\t" : m;
}

/**
 * Applies one step to JSON/JSONC text; `unit`: the indentation step (default: the text's own); `tree`: the
 * text's syntax tree when the caller has one (a notebook's shallow tree), parsed here otherwise.
 */
export function jsonStep(p: JsoncParser, text: string, step: Step, unit?: string, tree?: Node): string {
  const root = tree ?? p.parseTree(text, [], { allowTrailingComma: true });
  if (!root) throw new ToolError("invalid", { reason: "json_empty" });
  const c: Ctx = { text, unit: unit ?? indentUnit(text), eol: text.includes("\r\n") ? "\r\n" : "\n" };
  const splices =
    step.op === "set" ? setSplice(c, p, root, step.path, step.value) : deleteSplice(c, p, root, step.path);
  let out = text;
  for (const [s, e, t] of splices.sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + t + out.slice(e);
  return out;
}
