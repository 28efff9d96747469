import type { Config } from "../cli/config.js";
import type { AnyToolDef } from "./tool.js";

/**
 * The tools of the surface a configuration selects, in a fixed order. Only that surface's modules are
 * loaded (the workspace surface brings git and GitHub clients a filesystem server never needs).
 */
export async function loadTools(config: Config): Promise<readonly AnyToolDef[]> {
  if (config.surface === "workspace") return (await import("./workspace/index.js")).workspaceTools;
  return (await import("./filesystem/index.js")).filesystemTools;
}
