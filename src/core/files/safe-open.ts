import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../errors.js";
import { isWithin, printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";

const PROC_FD = process.platform === "linux";

/**
 * Opens a resolved path without following a symlink in its final component, then proves that what was
 * opened is still inside the root: on Linux `/proc/self/fd/N` names the real file behind the descriptor,
 * and its identity must match a fresh `lstat`. A symlink or directory swapped in after `resolve` is caught.
 */
export async function openVerified(
  target: ResolvedPath,
  flags: number = constants.O_RDONLY,
  mode?: number,
): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await fs.open(target.real, flags | constants.O_NOFOLLOW, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw changedError(target.requested);
    throw err;
  }
  try {
    await verifyDescriptor(fh, target.root.real, target.requested, target.real);
    return fh;
  } catch (err) {
    await fh.close().catch(() => {});
    throw err;
  }
}

/** Checks that an open descriptor refers to a file inside `rootReal` at the expected path. */
export async function verifyDescriptor(
  fh: FileHandle,
  rootReal: string,
  requested: string,
  expectedPath: string,
): Promise<void> {
  if (PROC_FD) {
    const actual = await fs.readlink(`/proc/self/fd/${fh.fd}`);
    if (!isWithin(actual, rootReal)) throw changedError(requested);
  }
  const [held, now] = await Promise.all([fh.stat(), fs.lstat(expectedPath).catch(() => undefined)]);
  if (!now || now.ino !== held.ino || now.dev !== held.dev) throw changedError(requested);
}

export function changedError(requested: string): ToolError {
  return new ToolError(
    `Access denied - the path changed while it was being opened: ${printable(requested)}`,
    "denied",
  );
}

/** Temp names share one recognisable shape so walkers and listings can hide them. */
export const TEMP_NAME = /^\.mcpfs-[0-9a-f]{16}\.tmp$/;

export function tempPathBeside(real: string): string {
  return path.join(path.dirname(real), `.mcpfs-${randomBytes(8).toString("hex")}.tmp`);
}
