import { ToolError } from "../../core/errors.js";
import type { Root, Workspace } from "../../core/workspace.js";

/** The project root of the workspace surface. */
export function projectRootOf(ws: Workspace): Root {
  const root = ws.roots.find((r) => r.kind === "project");
  if (!root) throw new ToolError("Project directory has not been set");
  return root;
}

/** A reference project by name, or undefined. */
export function referenceRootOf(ws: Workspace, name: string): Root | undefined {
  return ws.roots.find((r) => r.kind === "reference" && r.name === name);
}
