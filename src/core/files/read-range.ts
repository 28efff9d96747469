import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { CHEAP_HASH_LIMIT, type ReadState, stateOfHandle } from "./hash.js";
import { countLinesFrom, readLineRange } from "./line-range.js";
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
  /** The only line returned is the start of a line longer than the budget. */
  cutLine?: boolean;
  /**
   * mtime and size of the version read; its sha256 when the file is small (CHEAP_HASH_LIMIT) or `hash` was
   * asked; its line count unless that needs more than COUNT_REST_LIMIT bytes past the range.
   */
  state?: ReadState;
}

/** Lines after a range are counted (for "of N") when at most this many bytes follow it: ~1 ms here. */
const COUNT_REST_LIMIT = 4 * 1024 * 1024;

/**
 * Lines `start..end` (1-based, inclusive; `end` omitted = to the end) of a text file, streamed, plus the
 * state of the same version (retried if the file changes): never a second pass over a large file.
 */
export async function readRangeWithState(
  target: ResolvedPath,
  opts: { start: number; end?: number; maxBytes: number; hash?: boolean },
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
      const size = Number(since.size);
      let state: ReadState | undefined;
      if (opts.hash === true || size <= CHEAP_HASH_LIMIT)
        state = await stateOfHandle(fh, { hash: true, countLines: true, since });
      else {
        const rest = size - r.stop.offset;
        const total = !r.more
          ? r.stop.lines
          : rest <= COUNT_REST_LIMIT
            ? r.stop.lines + (await countLinesFrom(fh, r.stop.offset))
            : undefined;
        state = await stateOfHandle(fh, { hash: false, countLines: false, since });
        if (state && total !== undefined) state.totalLines = total;
      }
      if (state || attempt === 2)
        return {
          lines: r.lines,
          startLine: opts.start,
          more: r.more,
          truncated: r.truncated,
          lastNewline: r.lastNewline,
          ...(r.cutLine ? { cutLine: true } : {}),
          state,
        };
    }
  } finally {
    await fh.close();
  }
}
