/** Every module name the text loads with a literal: require, import(), createRequire(...)(...). */
export function loadedModules(text: string): string[];
/** The modules `text` loads that an install without devDependencies lacks. */
export function unbundledImports(
  text: string,
  dependencies: Record<string, string>,
  files?: readonly string[],
): string[];
