/**
 * Structured edits of config files that keep their formatting: JSON and JSONC through in-place splices
 * over jsonc-parser's syntax tree (json-splice.ts), YAML through in-place splices
 * (yaml-splice.ts), TOML through @decimalturn/toml-patch (diffs the old and new values and patches only the
 * changed key/values, keeping comments and layout). Every result is parsed again and must equal the value
 * the edits describe; otherwise nothing is written. The libraries load on first use.
 */
import type { Document } from "yaml";
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";
import { applyStep, getIn, parsePath, type Step, type StructuredEdit, stepsOf } from "./path-expr.js";

export type ConfigFormat = "json" | "yaml" | "toml";

/** The format a file's name says, or a refusal naming the requested path (`requested`). */
export function configFormat(name: string, requested: string): ConfigFormat {
  const ext = /\.([^./\\]+)$/.exec(name.toLowerCase())?.[1] ?? "";
  if (
    ["json", "jsonc", "json5", "code-workspace"].includes(ext) ||
    /(^|[\\/])\.?(babelrc|eslintrc)$/.test(name)
  )
    return "json";
  if (ext === "yml" || ext === "yaml") return "yaml";
  if (ext === "toml") return "toml";
  throw new ToolError("invalid", { reason: "not_structured", path: requested });
}

/** The file's value, parsed by its format (JSONC comments and trailing commas allowed). */
export async function parseConfig(format: ConfigFormat, text: string): Promise<unknown> {
  if (format === "json") {
    const { parse, printParseErrorCode } = await import("jsonc-parser");
    const errors: import("jsonc-parser").ParseError[] = [];
    const v = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0)
      throw new ToolError("invalid", {
        reason: "json_invalid",
        cause: printParseErrorCode(errors[0]!.error),
        actual: errors[0]!.offset,
      });
    return v;
  }
  if (format === "yaml") {
    const [y, { parseYaml, yamlValue }] = await Promise.all([import("yaml"), import("./yaml-value.js")]);
    return yamlValue(y, parseYaml(y, text), text);
  }
  const { parse } = await import("@decimalturn/toml-patch");
  try {
    return parse(text);
  } catch (err) {
    throw new ToolError("invalid", { reason: "toml_invalid", cause: lfPieces((err as Error).message)[0] });
  }
}

/**
 * Whether two parsed values are the same document: key order ignored, values with a JSON form (dates,
 * TOML's date kinds) compared by it. A walk, not two sorted JSON texts: a 1 MB file's value is large.
 */
const hasJsonForm = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === "function";

export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  if (hasJsonForm(a) || hasJsonForm(b)) return JSON.stringify(a) === JSON.stringify(b);
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameValue((a as Record<string, unknown>)[k], rb[k]));
}

/** JSON steps, each a splice over a fresh syntax tree (cheap: jsonc-parser is fast). */
async function jsonSteps(text: string, steps: Iterable<Step>): Promise<string> {
  const [{ jsonStep }, p] = await Promise.all([import("./json-splice.js"), import("jsonc-parser")]);
  let out = text;
  for (const s of steps) out = jsonStep(p, out, s);
  return out;
}

/**
 * The text after `edits` (in order). Throws when an edit does not apply, or when the result would not parse
 * to exactly the value the edits describe (then the file's layout defeated an in-place edit).
 */
export async function editConfigText(
  format: ConfigFormat,
  text: string,
  edits: readonly StructuredEdit[],
): Promise<string> {
  if (format === "yaml") return editYamlText(text, edits);
  if (format === "toml") return editTomlText(text, edits);
  const expected = await parseConfig(format, text);
  const steps = edits.flatMap((e) =>
    stepsOf(expected, e).map((s) => {
      applyStep(expected, s);
      return s;
    }),
  );
  const out = await jsonSteps(text, steps);
  const got = await parseConfig(format, out).catch(() => undefined);
  if (!sameValue(got, expected)) throw notInPlace();
  return out;
}

const notInPlace = () => new ToolError("invalid", { reason: "not_in_place" });

/**
 * TOML through toml-patch, which diffs the file's value against the expected one and patches the changed
 * keys; a new key under a table without a header of its own is first written as a section, as a person would.
 */
async function editTomlText(text: string, edits: readonly StructuredEdit[]): Promise<string> {
  const [toml, { tomlSectionInsert }] = await Promise.all([
    import("@decimalturn/toml-patch"),
    import("./toml-insert.js"),
  ]);
  const expected = await parseConfig("toml", text);
  let out = text;
  for (const e of edits)
    for (const s of stepsOf(expected, e)) {
      out = tomlSectionInsert(toml, out, expected, s) ?? out;
      applyStep(expected, s);
    }
  try {
    out = toml.patch(out, expected);
  } catch {
    // toml-patch cannot place some changes (e.g. a new array of tables at the top).
    throw notInPlace();
  }
  const got = await parseConfig("toml", out).catch(() => undefined);
  if (!sameValue(got, expected)) throw notInPlace();
  return out;
}

/**
 * YAML is slow to parse (~0.5 s a MB), so each text is parsed once: the file (for its value and the first
 * splice), then each step's result, which is the next step's document and, after the last, the check.
 */
async function editYamlText(text: string, edits: readonly StructuredEdit[]): Promise<string> {
  const [y, { parseYaml, yamlValue }, { yamlStep }] = await Promise.all([
    import("yaml"),
    import("./yaml-value.js"),
    import("./yaml-splice.js"),
  ]);
  let doc: Document.Parsed | undefined = parseYaml(y, text);
  const expected = yamlValue(y, doc, text);
  let out = text;
  for (const e of edits)
    for (const s of stepsOf(expected, e)) {
      applyStep(expected, s);
      out = yamlStep(y, out, doc!, s, expected);
      // Let the old tree go before the new one is built (a 1 MB file's tree is ~50 MB).
      doc = undefined;
      try {
        doc = parseYaml(y, out);
      } catch {
        throw notInPlace();
      }
    }
  let got: unknown;
  try {
    got = yamlValue(y, doc!, out);
  } catch {
    throw notInPlace();
  }
  if (!sameValue(got, expected)) throw notInPlace();
  return out;
}

/** The value at `query` (the whole document without one). */
export async function queryConfig(format: ConfigFormat, text: string, query?: string): Promise<unknown> {
  const value = await parseConfig(format, text);
  if (!query) return value;
  const path = parsePath(query);
  const found = getIn(value, path);
  if (found === undefined) throw new ToolError("not_found", { reason: "key_path", name: query });
  return found;
}
