import type { AnyToolDef, ToolAnnotations } from "./tool.js";

/** JSON Schema dialect the SDK asks schemas for (its `standardSchemaToJsonSchema`). */
const TARGET = "draft-2020-12";

/** What `tools/list` needs of a tool, as plain data: computed once at build time for the bundle. */
export interface CatalogEntry {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  mutating: boolean;
  needsGitHub?: boolean;
  input: Record<string, unknown>;
  output?: Record<string, unknown>;
}

/** The part of a Standard Schema (with JSON Schema) that the SDK uses; zod's schemas are ones. */
interface WithJson {
  "~standard": {
    version: 1;
    vendor: string;
    validate(value: unknown): unknown;
    jsonSchema: Record<"input" | "output", (options: { target: string }) => Record<string, unknown>>;
  };
}

function jsonOf(schema: unknown, io: "input" | "output"): Record<string, unknown> {
  return leanSchema((schema as WithJson)["~standard"].jsonSchema[io]({ target: TARGET })) as Record<
    string,
    unknown
  >;
}

/**
 * The schema a model is shown, without what tells it nothing: the `$schema` dialect (MCP's default is
 * 2020-12) and the ±2^53-1 bounds zod puts on every integer. Arguments are still validated by the zod
 * schema itself. About 15 tokens a tool.
 */
function leanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(leanSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema") continue;
    if ((k === "maximum" || k === "minimum") && Math.abs(v as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = leanSchema(v);
  }
  return out;
}

const listedInputs = new WeakMap<AnyToolDef, Record<string, unknown>>();

/** A tool's input schema as it is listed (a catalog's tool or a built one), converted once per tool. */
export function inputSchemaOf(tool: AnyToolDef): Record<string, unknown> {
  let schema = listedInputs.get(tool);
  if (!schema) {
    schema = jsonOf(tool.input, "input");
    listedInputs.set(tool, schema);
  }
  return schema;
}

/** The catalog of a surface's tools, with their schemas as the SDK would convert them. */
export function catalogOf(tools: readonly AnyToolDef[]): CatalogEntry[] {
  return tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    annotations: t.annotations,
    mutating: t.mutating,
    ...(t.needsGitHub ? { needsGitHub: true } : {}),
    input: jsonOf(t.input, "input"),
    ...(t.output ? { output: jsonOf(t.output, "output") } : {}),
  }));
}

/**
 * Tools that answer `tools/list` from a catalog and load their modules (zod schemas, core code) only when a
 * call needs them, or right after the first listing, so a cold start never builds 40 zod schemas or
 * converts them to JSON Schema. Validation and handling are the real tool's, unchanged.
 */
export function lazyTools(
  entries: readonly CatalogEntry[],
  load: () => Promise<readonly AnyToolDef[]>,
): AnyToolDef[] {
  let loading: Promise<Map<string, AnyToolDef>> | undefined;
  // Once loaded, validation answers synchronously (the SDK awaits either).
  let loaded: Map<string, AnyToolDef> | undefined;
  const real = async (name: string): Promise<AnyToolDef> => {
    loading ??= load().then((tools) => {
      loaded = new Map(tools.map((t) => [t.name, t]));
      return loaded;
    });
    const tool = (await loading).get(name);
    if (!tool) throw new Error(`tool ${name} is in the catalog but not in its surface`);
    return tool;
  };
  // Listing happens once per connection; warm the modules after its reply is out, before the first call.
  let warmed = false;
  const warm = () => {
    if (warmed) return;
    warmed = true;
    setTimeout(() => void real(entries[0]?.name ?? "").catch(() => {}), 0);
  };
  return entries.map((e) => {
    const schema = (io: "input" | "output", json: Record<string, unknown>): WithJson => {
      const listed = () => {
        warm();
        return json;
      };
      return {
        "~standard": {
          version: 1,
          vendor: "mcpfs",
          validate(value: unknown) {
            const now = loaded?.get(e.name);
            if (now) return (now[io] as WithJson)["~standard"].validate(value);
            return real(e.name).then((t) => (t[io] as WithJson)["~standard"].validate(value));
          },
          jsonSchema: { input: listed, output: listed },
        },
      };
    };
    return {
      name: e.name,
      title: e.title,
      description: e.description,
      annotations: e.annotations,
      mutating: e.mutating,
      ...(e.needsGitHub ? { needsGitHub: true } : {}),
      input: schema("input", e.input),
      ...(e.output ? { output: schema("output", e.output) } : {}),
      handler: (args: unknown, ctx: Parameters<AnyToolDef["handler"]>[1]) => {
        const now = loaded?.get(e.name);
        return now ? now.handler(args, ctx) : real(e.name).then((t) => t.handler(args, ctx));
      },
    } as unknown as AnyToolDef;
  });
}
