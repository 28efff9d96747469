import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { READ_HASH_LIMIT, type ReadState, stateOfHandle } from "./hash.js";
import { type LineRange, readLineRange } from "./line-range.js";
import { openVerified } from "./safe-open.js";

export interface ReadLinesOptions {
  /** First line (1-based); default 1. */
  start?: number;
  /** Last line (inclusive); default: to the end. */
  end?: number;
  /** Upper bound on the bytes of text returned (whole lines are kept). */
  maxBytes?: number;
  /** Also return the state (sha256 up to READ_HASH_LIMIT, mtime, size) of the version read. */
  withState?: boolean;
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
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError(`Not a file: ${printable(target.requested)}`, "not_file");
    const since = opts.withState ? await fh.stat({ bigint: true }) : undefined;
    const r = await readLineRange(fh, opts.start ?? 1, opts.end, { maxBytes: opts.maxBytes });
    if (!since) return r;
    const hash = since.size <= BigInt(READ_HASH_LIMIT);
    return { ...r, state: await stateOfHandle(fh, { hash, countLines: false, since }) };
  } finally {
    await fh.close();
  }
}
