import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { CHEAP_HASH_LIMIT, type ReadState, stateOfHandle } from "./hash.js";
import { type LineRange, readLineRange } from "./line-range.js";
import { openVerified } from "./safe-open.js";

export interface ReadLinesOptions {
  /** First line (1-based); default 1. */
  start?: number;
  /** Last line (inclusive); default: to the end. */
  end?: number;
  /** Upper bound on the bytes of text returned (whole lines are kept). */
  maxBytes?: number;
  /**
   * Also return the state of the version read: mtime and size; its sha256 for a read that reaches the end
   * of the file (computed as it streams), or a small file (CHEAP_HASH_LIMIT).
   */
  withState?: boolean;
  /** With `withState`: hash the whole file even when the read stops early on a large file. */
  hash?: boolean;
}

/**
 * Reads lines of a regular file through a verified descriptor. Throws ToolError `not_found` (missing),
 * `not_file` (a directory or special file) or InvalidTextError (not UTF-8).
 */
export async function readLines(
  target: ResolvedPath,
  opts: ReadLinesOptions = {},
): Promise<LineRange & { state?: ReadState }> {
  if (!target.exists) throw new ToolError(`No such file: ${printable(target.requested)}`, "not_found");
  // O_NONBLOCK: opening a FIFO must not hang the server; it is refused below as not a regular file.
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const since = await fh.stat({ bigint: true });
    if (!since.isFile()) throw new ToolError(`Not a file: ${printable(target.requested)}`, "not_file");
    const hash = opts.withState && (opts.start ?? 1) === 1 ? createHash("sha256") : undefined;
    const r = await readLineRange(fh, opts.start ?? 1, opts.end, { maxBytes: opts.maxBytes, hash });
    if (!opts.withState) return r;
    if (r.sha256 !== undefined) {
      // The whole file streamed through the hash: it is of the bytes returned. If a writer raced the read,
      // it matches no version of the file, so a change based on it is refused (the safe side).
      const mtime = new Date(Number(since.mtimeMs)).toISOString();
      return { ...r, state: { sha256: r.sha256, mtime, size: Number(since.size) } };
    }
    const whole = opts.hash === true || since.size <= BigInt(CHEAP_HASH_LIMIT);
    return { ...r, state: await stateOfHandle(fh, { hash: whole, countLines: false, since }) };
  } finally {
    await fh.close();
  }
}
