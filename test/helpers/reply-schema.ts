/**
 * Every tool reply of every black-box test is checked against the tool's `outputSchema`, as an SDK client
 * checks it (the v1 client: ajv, formats on, strict off): a tool with an output schema must answer a
 * successful call with `structuredContent` that validates. The schemas are listed once per connection,
 * right after it opens; a mismatch throws from the call and is also kept, so a test that expected the call
 * to fail for another reason still fails (see the `afterEach` below).
 */
import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterEach, expect } from "vitest";

// ajv-formats is CommonJS: its default export arrives wrapped under Node's ESM loader.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => void;

const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
addFormats(ajv);

/** Mismatches seen since the last test ended (read and cleared by the hook below and by `takeMismatches`). */
const mismatches: string[] = [];

afterEach(() => {
  const seen = mismatches.splice(0);
  expect(seen, "tool replies that do not match their outputSchema").toEqual([]);
});

/** The mismatches recorded so far, cleared (for the test of this checker itself). */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

export interface ReplyShape {
  isError?: boolean;
  structuredContent?: unknown;
}

/** Output-schema validators of one connection's tools, by tool name. */
export type OutputValidators = Map<string, ValidateFunction>;

/**
 * A schema's validator, compiled once per distinct schema (by its JSON text) in this worker: every
 * connection lists the same schemas, and compiling them again for each (here and in the v1 client) was about
 * a fifth of the mcp tier's CPU.
 */
function once<V>(cache: Map<string, V>, schema: object, compile: () => V): V {
  const key = JSON.stringify(schema);
  let v = cache.get(key);
  if (v === undefined) {
    v = compile();
    cache.set(key, v);
  }
  return v;
}

const ours = new Map<string, ValidateFunction>();

/** Compiles the output schemas of a `tools/list` answer. */
export function outputValidators(tools: { name: string; outputSchema?: object }[]): OutputValidators {
  const out: OutputValidators = new Map();
  for (const t of tools) {
    const schema = t.outputSchema;
    if (schema)
      out.set(
        t.name,
        once(ours, schema, () => ajv.compile(schema)),
      );
  }
  return out;
}

const sdkAjv = new AjvJsonSchemaValidator();
const theirs = new Map<string, ReturnType<jsonSchemaValidator["getValidator"]>>();

/**
 * The v1 client's own validator (`AjvJsonSchemaValidator`, its default, with its own ajv settings), its
 * validators kept per distinct schema: pass it as the client's `jsonSchemaValidator`. The check is the one
 * the client would make; only the compiling is shared.
 */
export const clientValidator: jsonSchemaValidator = {
  getValidator: <T>(schema: JsonSchemaType) =>
    once(theirs, schema, () => sdkAjv.getValidator(schema)) as ReturnType<typeof sdkAjv.getValidator<T>>,
};

/** Why `reply` of tool `name` breaks its schema, or undefined when it is fine (or the tool has none). */
export function replyMismatch(
  validators: OutputValidators,
  name: string,
  reply: ReplyShape,
): string | undefined {
  const validate = validators.get(name);
  if (!validate) return undefined;
  // As the v1 client: an error may come without structured content, but what comes must validate.
  if (reply.structuredContent === undefined)
    return reply.isError === true
      ? undefined
      : `${name}: a successful reply has no structuredContent, but the tool declares an outputSchema`;
  if (validate(reply.structuredContent)) return undefined;
  return `${name}: structuredContent does not match the outputSchema: ${ajv.errorsText(validate.errors)}`;
}

interface AnyClient {
  // biome-ignore lint/suspicious/noExplicitAny: the two SDK generations have different signatures
  listTools(...a: any[]): Promise<{ tools: { name: string; outputSchema?: object }[]; nextCursor?: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: the two SDK generations have different signatures
  callTool(...a: any[]): Promise<any>;
}

/**
 * Lists the tools of a freshly connected client (all pages) and makes its `callTool` check every reply,
 * whoever calls it (the harness's `call` or a test using `client.callTool` directly).
 */
export async function checkRepliesOf(client: AnyClient): Promise<void> {
  const tools: { name: string; outputSchema?: object }[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  const validators = outputValidators(tools);
  const callTool = client.callTool.bind(client);
  // biome-ignore lint/suspicious/noExplicitAny: forwarded as given
  client.callTool = async (params: { name: string }, ...rest: any[]) => {
    const reply = await callTool(params, ...rest).catch((err: unknown) => {
      // The v1 client checks too (it cached the schemas when we listed): its refusal is a mismatch as well.
      const message = err instanceof Error ? err.message : String(err);
      if (/output schema/i.test(message)) mismatches.push(`${params.name}: ${message}`);
      throw err;
    });
    const wrong = replyMismatch(validators, params.name, reply);
    if (wrong) {
      mismatches.push(wrong);
      throw new Error(`reply does not match its outputSchema — ${wrong}`);
    }
    return reply;
  };
}
