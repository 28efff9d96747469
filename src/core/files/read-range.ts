import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { READ_HASH_LIMIT, type ReadState, stateOfHandle } from "./hash.js";
import { readLineRange } from "./line-range.js";
import { openVerified } from "./safe-open.js";

export interface RangeRead {
  lines: string[];
  /** 1-based number of the first returned line. */
  startLine: number;
  /** Whether the file has lines after the last one returned. */
  more: boolean;
  /** The output budget cut the range short. */
  truncated: boolean;
  /** Whether the last returned line ended with a line break. */
  lastNewline: boolean;
  /** Hash (files up to READ_HASH_LIMIT), mtime, size and total line count of the version read. */
  state?: ReadState;
}

/**
 * Lines `start..end` (1-based, inclusive; `end` omitted = to the end) of a text file, streamed, plus the
 * state of the same version in one more pass over the same descriptor (retried if the file changes).
 */
export async function readRangeWithState(
  target: ResolvedPath,
  opts: { start: number; end?: number; maxBytes: number },
): Promise<RangeRead> {
  for (const [name, v] of [
    ["startLine", opts.start],
    ["endLine", opts.end],
  ] as const)
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new ToolError(
        `${name} must be a whole number of 1 or more (got ${v}) for ${printable(target.requested)}`,
      );
  if (opts.end !== undefined && opts.end < opts.start)
    throw new ToolError(`endLine (${opts.end}) must be >= startLine (${opts.start})`);
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    for (let attempt = 0; ; attempt++) {
      const since = await fh.stat({ bigint: true });
      if (!since.isFile())
        throw new ToolError(`Not a regular file: ${printable(target.requested)}`, "not_file");
      const r = await readLineRange(fh, opts.start, opts.end, { maxBytes: opts.maxBytes });
      const state = await stateOfHandle(fh, {
        hash: since.size <= BigInt(READ_HASH_LIMIT),
        countLines: true,
        since,
      });
      if (state || attempt === 2)
        return {
          lines: r.lines,
          startLine: opts.start,
          more: r.more,
          truncated: r.truncated,
          lastNewline: r.lastNewline,
          state,
        };
    }
  } finally {
    await fh.close();
  }
}
