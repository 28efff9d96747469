/**
 * A parsed YAML document as a plain JSON value, made in one pass: what read_structured returns and what
 * every YAML edit is checked against. `yaml`'s own toJS resolves each alias by scanning the nodes before
 * it and checks each map key against every earlier one (both quadratic: a 1 MB compose file with 6,000
 * aliases took seconds), so the document is parsed with `uniqueKeys: false` and this walk, in document
 * order, remembers each anchor's value and each map's keys. Rules:
 * - an alias is a copy of its anchor's value (an edit at one place never shows at another);
 * - the YAML 1.1 merge key (`<<: *base`, a list of them, or an inline map), which docker-compose files
 *   rely on, is expanded: the map's own keys win, then earlier sources; a `<<` whose value is not a map
 *   (or a list of maps) stays an ordinary key. Edits keep `<<` as written;
 * - a key is its scalar's text (null is ""), a collection key its JSON text; a key twice in a map is an error;
 * - values are as JSON has them: dates as ISO text, non-finite numbers as null.
 */
import type { Document, Node as YamlNode } from "yaml";
import { ToolError } from "../errors.js";
import { countLines, lfPieces } from "../text/lines.js";
import { isPlainObject } from "./path-expr.js";

type Yaml = typeof import("yaml");

/** Parse options: duplicate keys are found by yamlValue (yaml's own check is quadratic in a map's size). */
export const YAML_PARSE = { uniqueKeys: false } as const;

/** Values an alias may copy in all, so a small file cannot expand to gigabytes ("billion laughs"). */
const MAX_ALIAS_COPIES = 1_000_000;

interface Walk {
  y: Yaml;
  text: string;
  /** Each anchor's latest value (with its size in values, aliases expanded), or "open" while it is read. */
  anchors: Map<string, { value: unknown; size: number } | "open">;
  /** Values made so far, aliases expanded; and how many of them were copies for aliases. */
  made: number;
  copied: number;
}

/** The document parsed for edits and reads; a syntax error is refused with its first line. */
export function parseYaml(y: Yaml, text: string): Document.Parsed {
  const doc = y.parseDocument(text, YAML_PARSE);
  if (doc.errors.length > 0)
    throw new ToolError("invalid", { reason: "yaml_invalid", cause: lfPieces(doc.errors[0]!.message)[0] });
  return doc;
}

/** The document's value (see the rules above). */
export function yamlValue(y: Yaml, doc: Document.Parsed, text: string): unknown {
  const w: Walk = { y, text, anchors: new Map(), made: 0, copied: 0 };
  return nodeValue(w, doc.contents);
}

function nodeValue(w: Walk, node: YamlNode | null | undefined): unknown {
  if (!node) return null;
  if (w.y.isAlias(node)) return copyOf(w, node.source);
  const anchor = (node as { anchor?: string }).anchor;
  if (anchor) w.anchors.set(anchor, "open");
  const before = w.made;
  w.made++;
  let value: unknown;
  if (w.y.isScalar(node)) value = plain(node.value);
  else if (w.y.isMap(node)) value = mapOf(w, node.items);
  else if (w.y.isSeq(node))
    value = node.items.map((it) => (w.y.isPair(it) ? mapOf(w, [it]) : nodeValue(w, it as YamlNode)));
  else value = null;
  if (anchor) w.anchors.set(anchor, { value, size: w.made - before });
  return value;
}

function copyOf(w: Walk, name: string): unknown {
  const a = w.anchors.get(name);
  if (a === undefined) throw new ToolError("invalid", { reason: "yaml_alias_unanchored", name });
  if (a === "open") throw new ToolError("invalid", { reason: "yaml_alias_recursive", name });
  // Counted as made too, so an anchor whose value holds aliases has the size of what they expand to.
  w.copied += a.size;
  w.made += a.size;
  if (w.copied > MAX_ALIAS_COPIES)
    throw new ToolError("invalid", { reason: "yaml_alias_expansion", limit: MAX_ALIAS_COPIES });
  return typeof a.value === "object" && a.value !== null ? structuredClone(a.value) : a.value;
}

/** A scalar as JSON has it (dates as ISO text, NaN and infinities as null, bytes as their JSON form). */
function plain(v: unknown): unknown {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "bigint") return Number(v);
  if (v === undefined) return null;
  if (typeof v !== "object" || v === null) return v;
  const json = JSON.stringify(v);
  return json === undefined ? null : JSON.parse(json);
}

function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  // "__proto__" is an ordinary key here, never the object's prototype (defineProperty only for it: it
  // makes an object slow).
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

type Item = { key: unknown; value: unknown };

function mapOf(w: Walk, items: readonly Item[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Set<unknown>();
  for (const { key, value } of items) {
    const k = key as YamlNode | null;
    const name = keyText(w, k);
    const v = nodeValue(w, value as YamlNode | null);
    const sources = w.y.isScalar(k) && k.value === "<<" && k.type === "PLAIN" ? mergeSources(v) : undefined;
    if (sources) {
      for (const src of sources)
        for (const [mk, mv] of Object.entries(src)) if (!Object.hasOwn(out, mk)) setKey(out, mk, mv);
      continue;
    }
    if (w.y.isScalar(k)) {
      if (seen.has(k.value)) throw duplicate(w, k);
      seen.add(k.value);
    }
    // A key after a merge replaces the merged value (explicit keys win wherever they stand).
    setKey(out, name, v);
  }
  return out;
}

/** The maps a merge key's value names, or undefined when it is not a map or a list of maps. */
function mergeSources(v: unknown): Record<string, unknown>[] | undefined {
  if (isPlainObject(v)) return [v];
  if (Array.isArray(v) && v.length > 0 && v.every(isPlainObject)) return v;
  return undefined;
}

function keyText(w: Walk, k: YamlNode | null): string {
  if (!k) return "";
  const v = w.y.isScalar(k) ? plain(k.value) : nodeValue(w, k);
  if (v === null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

function duplicate(w: Walk, k: YamlNode): ToolError {
  const at = k.range?.[0] ?? 0;
  const line = countLines(w.text.slice(0, at + 1));
  return new ToolError("invalid", { reason: "yaml_duplicate_key", name: String(k), actual: line });
}
