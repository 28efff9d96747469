/**
 * The arguments a call gives that its tool does not take, found against the tool's listed input schema (what
 * the model was shown), nested objects and array items included. The SDK drops them silently, as both
 * originals do; for a tool that changes files that can change what it does (register-tools.ts refuses them).
 */
import { inputSchemaOf } from "./catalog.js";
import type { AnyToolDef } from "./tool.js";

export interface UnknownArgument {
  /** Where it is: `dry_run`, `files[0].expected_sha256`. */
  at: string;
  /** The parameter at that place spelt the same but for case, `_` and `-` (for the first `NAMED` found). */
  meant?: string;
}

/** Arguments a reply names, at most: a call may send thousands, and only these get a `meant`. */
export const NAMED = 8;

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: unknown;
};

const looseName = (name: string) => name.toLowerCase().replace(/[_-]/g, "");

/** The names an object schema takes; `undefined`: any name (no object schema, or one open to others). */
type Names = Readonly<Record<string, Schema>> | undefined;
const namesBySchema = new WeakMap<Schema, Names>();

function namesOf(schema: Schema): Names {
  if (namesBySchema.has(schema)) return namesBySchema.get(schema);
  // An item of a union may use any variant's names; a variant open to other names (`options`) takes all.
  const variants = (schema.anyOf ?? schema.oneOf ?? [schema]).filter((v) => v.properties);
  const open = variants.some((v) => v.additionalProperties !== undefined && v.additionalProperties !== false);
  const names: Names =
    variants.length === 0 || open ? undefined : Object.assign({}, ...variants.map((v) => v.properties));
  namesBySchema.set(schema, names);
  return names;
}

function collect(value: unknown, schema: Schema, at: string, out: UnknownArgument[]): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) for (const [i, v] of value.entries()) collect(v, items, `${at}[${i}]`, out);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const known = namesOf(schema);
  if (!known) return;
  for (const [key, v] of Object.entries(value)) {
    const where = at === "" ? key : `${at}.${key}`;
    const sub = Object.hasOwn(known, key) ? known[key] : undefined;
    if (sub) collect(v, sub, where, out);
    else {
      const meant =
        out.length < NAMED ? Object.keys(known).find((k) => looseName(k) === looseName(key)) : undefined;
      out.push({ at: where, ...(meant !== undefined ? { meant } : {}) });
    }
  }
}

/** The arguments of `args` that `tool`'s listed input schema does not name, in the order given. */
export function unknownArgumentsOf(tool: AnyToolDef, args: unknown): UnknownArgument[] {
  const out: UnknownArgument[] = [];
  collect(args, inputSchemaOf(tool) as Schema, "", out);
  return out;
}
