import { type Config, defaultConfig } from "../config/index.js";

/**
 * The official style at its plainest, `mcpfs DIR...` with no flag at all: the config commander would make,
 * without loading commander (a cold start's worth of parsing). Anything with a flag returns undefined.
 */
export function plainDirectories(argv: readonly string[]): Config | undefined {
  if (argv.some((a) => a.startsWith("-") && a !== "-")) return undefined;
  const config = defaultConfig();
  config.directories = [...argv];
  return config;
}
