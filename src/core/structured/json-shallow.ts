/**
 * The top of a JSON text as jsonc-parser nodes, fast on big files: the root object's members, and the
 * elements of one array member (a notebook's cells) as nodes with their spans but no children. The text
 * must already be known to be valid JSON (JSON.parse took it): strings are skipped with indexOf and
 * containers with a native regex search, so a 10 MB notebook of base64 outputs costs a few ms, where
 * jsonc-parser's scanner reads every character in JS (~100 ms) and copies every string.
 */
import type { Node } from "jsonc-parser";

/** A node while it is built (jsonc-parser's are read-only; parents and children point at each other). */
type Building = { -readonly [K in keyof Node]: Node[K] };

const NOT_WS = /[^ \t\r\n]/g;
const STRUCTURE = /["[\]{}]/g;
const SCALAR_END = /[,\]} \t\r\n]/g;

function skipWs(t: string, i: number): number {
  NOT_WS.lastIndex = i;
  return NOT_WS.exec(t)?.index ?? t.length;
}

/** The end of the string that starts at `i` (a quote escaped by an odd run of backslashes is inside it). */
function stringEnd(t: string, i: number): number {
  for (let q = t.indexOf('"', i + 1); ; q = t.indexOf('"', q + 1)) {
    if (q === -1) return t.length;
    let k = q - 1;
    while (t.charCodeAt(k) === 92) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
  }
}

/** The end of the value that starts at `i`. */
function valueEnd(t: string, i: number): number {
  const c = t[i];
  if (c === '"') return stringEnd(t, i);
  if (c !== "{" && c !== "[") {
    SCALAR_END.lastIndex = i;
    return SCALAR_END.exec(t)?.index ?? t.length;
  }
  let depth = 0;
  STRUCTURE.lastIndex = i;
  for (let m = STRUCTURE.exec(t); m; m = STRUCTURE.exec(t)) {
    const ch = m[0];
    if (ch === '"') STRUCTURE.lastIndex = stringEnd(t, m.index);
    else if (ch === "{" || ch === "[") depth++;
    else if (--depth === 0) return m.index + 1;
  }
  return t.length;
}

function typeAt(c: string | undefined): Node["type"] {
  if (c === "{") return "object";
  if (c === "[") return "array";
  if (c === '"') return "string";
  if (c === "t" || c === "f") return "boolean";
  if (c === "n") return "null";
  return "number";
}

/** The elements of the array at `i` as childless nodes (their type and span only). */
function elements(t: string, i: number, parent: Node): Node[] {
  const out: Node[] = [];
  let j = skipWs(t, i + 1);
  while (j < t.length && t[j] !== "]") {
    const e = valueEnd(t, j);
    out.push({ type: typeAt(t[j]), offset: j, length: e - j, parent });
    j = skipWs(t, e);
    if (t[j] === ",") j = skipWs(t, j + 1);
  }
  return out;
}

/**
 * The root object's members as property nodes; the member named `expand`, when an array, has its elements.
 * Undefined when the text is not an object or a top-level key repeats (which member counts would be unclear).
 */
export function shallowTree(t: string, expand: string): Node | undefined {
  const start = skipWs(t, 0);
  if (t[start] !== "{") return undefined;
  const root: Building = { type: "object", offset: start, length: 0, children: [] };
  const keys = new Set<string>();
  let i = skipWs(t, start + 1);
  while (t[i] === '"') {
    const keyEnd = stringEnd(t, i);
    const name = JSON.parse(t.slice(i, keyEnd)) as string;
    if (keys.has(name)) return undefined;
    keys.add(name);
    const colon = skipWs(t, keyEnd);
    const v = skipWs(t, colon + 1);
    const end = valueEnd(t, v);
    const prop: Building = { type: "property", offset: i, length: end - i, colonOffset: colon, parent: root };
    const key: Node = { type: "string", value: name, offset: i, length: keyEnd - i, parent: prop };
    const value: Building = { type: typeAt(t[v]), offset: v, length: end - v, parent: prop };
    if (name === expand && value.type === "array") value.children = elements(t, v, value);
    prop.children = [key, value];
    (root.children as Node[]).push(prop);
    i = skipWs(t, end);
    if (t[i] === ",") i = skipWs(t, i + 1);
  }
  root.length = i + 1 - start;
  return root;
}
