// Bundle stand-in for @modelcontextprotocol/server/_shims (node): the same exports, but ajv (only needed
// to validate elicitation replies) is initialised on first use, not at startup. The require() is bundled
// (esbuild wraps the module lazily), so the installed package needs no SDK beside the bundle.
import process from "node:process";

export class DefaultJsonSchemaValidator {
  #inner;
  getValidator(schema) {
    this.#inner ??= new (require("@modelcontextprotocol/server/validators/ajv").AjvJsonSchemaValidator)();
    return this.#inner.getValidator(schema);
  }
}

export { process };
