import type { Config } from "../config/index.js";
import { catalogOf, lazyTools } from "./catalog.js";
import { filesystemPolicy } from "./filesystem/policy.js";
import type { SurfacePolicy } from "./policy.js";
import { prebuiltCatalogs } from "./prebuilt.js";
import type { AnyToolDef } from "./tool.js";
import { workspacePolicy } from "./workspace/policy.js";

/** The policy of the surface a configuration selects (what server/ asks instead of which surface runs). */
export function policyFor(config: Pick<Config, "surface">): SurfacePolicy {
  return config.surface === "workspace" ? workspacePolicy : filesystemPolicy;
}

/**
 * The tools of the surface a configuration selects, in a fixed order. Only that surface's modules are
 * loaded (the workspace surface brings git and GitHub clients a filesystem server never needs); with a
 * prebuilt catalog (the bundle), not even those until a call or the first listing asks for them.
 */
export async function loadTools(config: Config): Promise<readonly AnyToolDef[]> {
  const load = () => surfaceTools(config);
  // Unbundled, the catalog is made now, so both runs list the same (lean) schemas.
  const catalog = prebuiltCatalogs[config.surface] ?? catalogOf(await load());
  return lazyTools(catalog, load);
}

/** The surface's real tool definitions. */
async function surfaceTools(config: Pick<Config, "surface">): Promise<readonly AnyToolDef[]> {
  if (config.surface === "workspace") return (await import("./workspace/index.js")).workspaceTools;
  return (await import("./filesystem/index.js")).filesystemTools;
}
