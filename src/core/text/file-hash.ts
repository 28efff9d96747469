/**
 * Hashes computed while reading a file through the one chunk loop (reader.ts's `eachChunk`): a file's state
 * for a precondition (`fileState`) and the state a read reply carries (`stateOfHandle`).
 */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { ToolError } from "../errors.js";
import { openVerifiedIfExists, type ReadAt, type VerifiedHandle } from "../fs/safe-open.js";
import type { ResolvedPath } from "../root.js";
import { LineCounter } from "./lines.js";
import { eachChunk } from "./reader.js";

const CHUNK = 1024 * 1024;

/** What a read reply tells the client so a later change can say "only if the file is still this". */
export interface FileState {
  sha256: string;
  size: number;
  /** ISO 8601 modification time. */
  mtime: string;
}

/**
 * Streams an open file through sha256 (never holds more than one chunk). `expected`: its size by its status,
 * so a small file gets a buffer of its size, not a megabyte (a read to its end is still what counts).
 */
export async function hashHandle(
  fh: VerifiedHandle,
  expected = CHUNK,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  await eachChunk(fh, { size: Math.min(CHUNK, Math.max(1, expected + 1)) }, (chunk) => {
    hash.update(chunk);
    size += chunk.length;
    return undefined;
  });
  return { sha256: hash.digest("hex"), size };
}

/** sha256, size and mtime of a file opened safely; `undefined` when it does not exist. */
export async function fileState(target: ResolvedPath): Promise<FileState | undefined> {
  const fh = await openVerifiedIfExists(target);
  if (!fh) return undefined;
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    const { sha256, size } = await hashHandle(fh, st.size);
    return { sha256, size, mtime: new Date(st.mtimeMs).toISOString() };
  } finally {
    await fh.close();
  }
}

/**
 * A head/tail/line-range read hashes (and counts the lines of) the whole file only up to this size, or when
 * the client asks: 256 KiB hash in ~0.3 ms here (sha256 runs at ~800 MB/s), which is the cost of the read
 * itself, and a file of that size fits whole in one default reply anyway. Above it a partial read would pay
 * for bytes it does not return (a 60 MB file: 50 ms against 1 ms for the read). A whole-file read always
 * carries the hash: it is computed while the read streams.
 */
export const CHEAP_HASH_LIMIT = 256 * 1024;

/** The state a read reply carries: hash (when the file is small enough), mtime, size and line count. */
export interface ReadState {
  sha256?: string;
  mtime: string;
  size: number;
  /** Lines as every read counts them (text/lines.ts: each LF ends one; a lone CR is content). */
  totalLines?: number;
}

/**
 * One pass over an open file for its hash and line count. Returns `undefined` when the file changed during
 * the pass (the caller's content and this hash might then describe different versions).
 */
export async function stateOfHandle(
  fh: ReadAt,
  opts: { hash: boolean; countLines: boolean; since?: BigIntStats },
): Promise<ReadState | undefined> {
  // `since`: the status taken before the caller read the content, so hash and content are one version.
  const before = opts.since ?? (await fh.stat({ bigint: true }));
  const hash = opts.hash ? createHash("sha256") : undefined;
  const counter = opts.countLines ? new LineCounter() : undefined;
  if (hash || counter)
    await eachChunk(fh, { size: Math.min(CHUNK, Number(before.size) + 1) }, (chunk) => {
      hash?.update(chunk);
      counter?.push(chunk);
      return undefined;
    });
  const after = await fh.stat({ bigint: true });
  if (after.size !== before.size || after.mtimeNs !== before.mtimeNs || after.ctimeNs !== before.ctimeNs)
    return undefined;
  const state: ReadState = { mtime: new Date(Number(after.mtimeMs)).toISOString(), size: Number(after.size) };
  if (hash) state.sha256 = hash.digest("hex");
  if (counter) state.totalLines = counter.lines;
  return state;
}
