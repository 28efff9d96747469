// Node has WebAssembly; @types/node does not declare it (TypeScript's DOM lib does, and it is not used here).
// Only what codecs.ts uses.
declare namespace WebAssembly {
  class Module {
    private readonly wasmModule: never;
  }
  class Instance {
    constructor(module: Module, imports?: Imports);
    readonly exports: unknown;
  }
  type Imports = Record<string, Record<string, unknown>>;
  function compile(bytes: Uint8Array): Promise<Module>;
}
