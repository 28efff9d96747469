/**
 * New keys under a TOML table that has no header of its own (`tool` in a pyproject.toml that only has
 * `[tool.ruff]`): toml-patch writes them as dotted keys in the root table, before the first table
 * (`tool.black = {line-length = 88}`), valid but not what a person writes. Here they become sections:
 * a new table as `[tool.black]` after the last `[tool.…]` section, a new value as `[tool]` before the first
 * one (with the comment lines above it). Anything else is left to toml-patch; the caller checks the result.
 */
import { isPlainObject, type Segment, type Step } from "./path-expr.js";

type TomlPatch = typeof import("@decimalturn/toml-patch");

interface Header {
  path: string[];
  /** Where its line starts, and where the comment lines right above it start. */
  start: number;
  lead: number;
}

const HEADER = /^[ \t]*\[(?!\[)([^\]\r\n]+)\][ \t]*(?:#[^\r\n]*)?\r?$/gm;

/** The key path of a header's text (`a."b.c"` → [a, b.c]), read by the TOML parser itself. */
function headerPath(toml: TomlPatch, inner: string): string[] | undefined {
  let v: unknown;
  try {
    v = toml.parse(`${inner} = 0`);
  } catch {
    return undefined;
  }
  const path: string[] = [];
  while (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length !== 1) return undefined;
    path.push(keys[0]!);
    v = v[keys[0]!];
  }
  return path;
}

function headers(toml: TomlPatch, text: string): Header[] {
  const out: Header[] = [];
  for (const m of text.matchAll(HEADER)) {
    const path = headerPath(toml, m[1]!);
    if (!path) continue;
    let lead = m.index;
    // Comment lines right above the header belong to it.
    for (;;) {
      const prev = text.lastIndexOf("\n", lead - 2) + 1;
      if (lead === 0 || !/^[ \t]*#/.test(text.slice(prev, lead))) break;
      lead = prev;
    }
    out.push({ path, start: m.index, lead });
  }
  return out;
}

const within = (path: readonly string[], parent: readonly Segment[]) =>
  path.length > parent.length && parent.every((s, i) => path[i] === s);
const keyText = (k: Segment) => (/^[A-Za-z0-9_-]+$/.test(String(k)) ? String(k) : JSON.stringify(String(k)));
/** A value toml-patch renders as one `key = value` line (no tables inside it). */
const flat = (v: unknown) =>
  !isPlainObject(v) && !(Array.isArray(v) && v.some((x) => isPlainObject(x) || Array.isArray(x)));

/** The text with the step's new key written as a section, or undefined to leave the step to toml-patch. */
export function tomlSectionInsert(
  toml: TomlPatch,
  text: string,
  before: unknown,
  step: Step,
): string | undefined {
  if (step.op !== "set") return undefined;
  // The first key on the path that is new; what the step sets is the value under it.
  let holder: unknown = before;
  let d = 0;
  while (d < step.path.length && isPlainObject(holder) && Object.hasOwn(holder, step.path[d] as string))
    holder = holder[step.path[d++] as string];
  const parent = step.path.slice(0, d);
  const key = step.path[d];
  if (parent.length === 0 || !isPlainObject(holder) || typeof key !== "string") return undefined;
  let v = step.value;
  for (const s of step.path.slice(d + 1).reverse()) v = { [s as string]: v };
  const hs = headers(toml, text);
  // The parent has a header: toml-patch adds the key under it.
  if (hs.some((h) => h.path.length === parent.length && parent.every((s, i) => h.path[i] === s)))
    return undefined;
  const subs = hs.filter((h) => within(h.path, parent));
  if (subs.length === 0) return undefined;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const table = isPlainObject(v) && Object.values(v).every(flat);
  if (!table && !flat(v)) return undefined;
  const members = table ? Object.entries(v as Record<string, unknown>) : [[key, v] as const];
  const head = `[${(table ? [...parent, key] : parent).map(keyText).join(".")}]`;
  const body = [head, ...members.map(([k, x]) => toml.stringify({ [k]: x }).trimEnd())].join(eol) + eol;
  if (!table) {
    const at = subs[0]!.lead;
    return text.slice(0, at) + body + eol + text.slice(at);
  }
  // After the last section under the parent: before the next header (and its comments), or at the end.
  const next = hs.find((h) => h.start > subs.at(-1)!.start);
  if (next) return text.slice(0, next.lead) + body + eol + text.slice(next.lead);
  const end = text.length === 0 || text.endsWith("\n") ? text : text + eol;
  return `${end}${eol}${body}`;
}
