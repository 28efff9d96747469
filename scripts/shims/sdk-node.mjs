// Bundle stand-in for @modelcontextprotocol/server/_shims (node): the same exports, but ajv (only needed
// to validate elicitation replies) is loaded from the SDK package on first use, not at startup.
import { createRequire } from "node:module";
import process from "node:process";

const require = createRequire(import.meta.url);

export class DefaultJsonSchemaValidator {
  #inner;
  getValidator(schema) {
    this.#inner ??= new (require("@modelcontextprotocol/server/validators/ajv").AjvJsonSchemaValidator)();
    return this.#inner.getValidator(schema);
  }
}

export { process };
