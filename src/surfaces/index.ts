import type { Config } from "../cli/config.js";
import { filesystemTools } from "./filesystem/index.js";
import type { AnyToolDef } from "./tool.js";
import { workspaceTools } from "./workspace/index.js";

/** The tools of the surface a configuration selects, in a fixed order. */
export function toolsFor(config: Config): readonly AnyToolDef[] {
  return config.surface === "workspace" ? workspaceTools : filesystemTools;
}
