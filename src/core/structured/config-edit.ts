/**
 * Structured edits of config files that keep their formatting: JSON and JSONC through in-place splices
 * over jsonc-parser's syntax tree (json-splice.ts), YAML through in-place splices
 * (yaml-splice.ts), TOML through @decimalturn/toml-patch (diffs the old and new values and patches only the
 * changed key/values, keeping comments and layout). Every result is parsed again and must equal the value
 * the edits describe; otherwise nothing is written. The libraries load on first use.
 */
import { ToolError } from "../errors.js";
import { lfPieces } from "../text/lines.js";
import { applyStep, getIn, parsePath, type Step, type StructuredEdit, stepsOf } from "./path-expr.js";

export type ConfigFormat = "json" | "yaml" | "toml";

/** The format a file's name says, or a refusal naming what is supported. */
export function configFormat(name: string, shown: string): ConfigFormat {
  const ext = /\.([^./\\]+)$/.exec(name.toLowerCase())?.[1] ?? "";
  if (
    ["json", "jsonc", "json5", "code-workspace"].includes(ext) ||
    /(^|[\\/])\.?(babelrc|eslintrc)$/.test(name)
  )
    return "json";
  if (ext === "yml" || ext === "yaml") return "yaml";
  if (ext === "toml") return "toml";
  throw new ToolError(
    `Not a structured file: ${shown}. read_structured and edit_structured take .json, .jsonc, .yaml, .yml and .toml files; use edit_file or edit_lines for others.`,
  );
}

/** The file's value, parsed by its format (JSONC comments and trailing commas allowed). */
export async function parseConfig(format: ConfigFormat, text: string): Promise<unknown> {
  if (format === "json") {
    const { parse, printParseErrorCode } = await import("jsonc-parser");
    const errors: import("jsonc-parser").ParseError[] = [];
    const v = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length > 0)
      throw new ToolError(
        `Not valid JSON: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}.`,
      );
    return v;
  }
  if (format === "yaml") {
    const { parseDocument } = await import("yaml");
    const doc = parseDocument(text);
    if (doc.errors.length > 0) throw new ToolError(`Not valid YAML: ${lfPieces(doc.errors[0]!.message)[0]}`);
    // Through JSON: aliases become copies, so an edit at one place never shows at another.
    return JSON.parse(JSON.stringify(doc.toJS({ maxAliasCount: 10_000 }) ?? null));
  }
  const { parse } = await import("@decimalturn/toml-patch");
  try {
    return parse(text);
  } catch (err) {
    throw new ToolError(`Not valid TOML: ${lfPieces((err as Error).message)[0]}`);
  }
}

/** A stable text form of a value: keys sorted, dates as ISO text, big integers as digits. */
function canonical(v: unknown): string {
  return JSON.stringify(v, function (this: unknown, _k, x) {
    if (typeof x === "bigint") return `${x}n`;
    if (x && typeof x === "object" && !Array.isArray(x))
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, (x as Record<string, unknown>)[k]]),
      );
    return x;
  });
}

async function applyOne(format: ConfigFormat, text: string, step: Step, expected: unknown): Promise<string> {
  if (format === "json") {
    const { jsonStep } = await import("./json-splice.js");
    return jsonStep(await import("jsonc-parser"), text, step);
  }
  const { yamlStep } = await import("./yaml-splice.js");
  return yamlStep(await import("yaml"), text, step, expected);
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
  const expected = await parseConfig(format, text);
  let out = text;
  if (format === "toml") {
    for (const e of edits) for (const s of stepsOf(expected, e)) applyStep(expected, s);
    const { patch } = await import("@decimalturn/toml-patch");
    out = patch(text, expected);
  } else {
    for (const e of edits)
      for (const s of stepsOf(expected, e)) {
        applyStep(expected, s);
        out = await applyOne(format, out, s, expected);
      }
  }
  const got = await parseConfig(format, out).catch(() => undefined);
  if (canonical(got) !== canonical(expected))
    throw new ToolError(
      "Refused: this edit could not be made in place without changing other values. Nothing was changed; edit the text with edit_file.",
    );
  return out;
}

/** The value at `query` (the whole document without one). */
export async function queryConfig(format: ConfigFormat, text: string, query?: string): Promise<unknown> {
  const value = await parseConfig(format, text);
  if (!query) return value;
  const path = parsePath(query);
  const found = getIn(value, path);
  if (found === undefined) throw new ToolError(`Nothing at '${query}'.`, "not_found");
  return found;
}
