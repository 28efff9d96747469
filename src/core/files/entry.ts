import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { Intent, ResolvedPath, Workspace } from "../workspace.js";

export interface ResolvedEntry extends ResolvedPath {
  /** The entry itself is a symbolic link (its `real` is the link's own location, not its target). */
  readonly isLink: boolean;
}

/**
 * Resolves a path to the directory ENTRY it names, without following a symlink in the last component:
 * the parent goes through `ws.resolve` (confined, symlinks resolved), the final name is joined as-is.
 * Used where the link itself is the subject (moving a link moves the link, not its target).
 */
export async function resolveEntry(ws: Workspace, requested: string, intent: Intent): Promise<ResolvedEntry> {
  const trimmed = requested.replace(/[\\/]+$/, "");
  const base = path.basename(trimmed);
  const parentReq = path.dirname(trimmed);
  if (base === "" || base === "." || base === ".." || parentReq === trimmed) {
    return { ...(await ws.resolve(requested, { intent })), isLink: false };
  }
  // Errors are reported against the path the client sent, not the parent derived from it.
  const parent = await ws.resolve(parentReq, { intent }).catch(() => ws.resolve(requested, { intent }));
  const real = path.join(parent.real, base);
  const st = await fs.lstat(real).catch((err) => {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return undefined;
    throw err;
  });
  if (st?.isSymbolicLink()) {
    const root = ws.rootOf(real) ?? parent.root;
    if (intent === "write" && root.mode === "ro")
      throw new ToolError(`Access denied - read-only location: ${printable(requested)}`, "read_only");
    const relative = path.relative(root.real, real).split(path.sep).join("/");
    return { requested, real, root, exists: true, relative, isLink: true };
  }
  // Not a link: the ordinary resolution decides (it also handles a root named directly).
  return { ...(await ws.resolve(requested, { intent })), isLink: false };
}
