import { type BigIntStats, closeSync, type Stats, statSync } from "node:fs";
import { ToolError } from "../errors.js";
import { openVerifiedSync } from "../fs/safe-open.js";
import { encodingOfOpen } from "../text/read-file.js";
import type { ResolvedPath } from "../workspace.js";

export interface FileInfo {
  size: number;
  created: Date;
  modified: Date;
  accessed: Date;
  isDirectory: boolean;
  isFile: boolean;
  /** Full mode bits: file type stripped, setuid/setgid/sticky kept (e.g. 0o4755). */
  mode: number;
  type: "file" | "directory" | "other";
  /** A regular file's encoding when asked for (`encodingOfOpen`); undefined for binary bytes. */
  encoding?: string;
}

/**
 * Metadata of what the resolved path names (symlinks followed, as the resolution did) and, with `encoding`,
 * a regular file's encoding: one verified open serves both (its status is the descriptor's, the sniff reads
 * through it). What that open refuses for its kind or permissions (a FIFO, a device, an unreadable file)
 * still has its metadata, from a stat of the path.
 */
export async function fileInfo(target: ResolvedPath, opts: { encoding?: boolean } = {}): Promise<FileInfo> {
  let opened: { fd: number; st: BigIntStats };
  try {
    opened = openVerifiedSync(target);
  } catch (err) {
    if (!metadataOnly(err)) throw err;
    // Synchronous: one stat is cheaper than a thread-pool round trip on this hot, tiny call.
    return infoOf(statSync(target.real));
  }
  try {
    const info = infoOf(opened.st);
    if (opts.encoding && info.isFile)
      // An unreadable sample leaves the encoding unsaid, the metadata stands.
      info.encoding = await encodingOfOpen(opened.fd, info.size).catch(() => undefined);
    return info;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * A refusal of the verified open that leaves the path's metadata to a stat: its kind (a FIFO, a socket, a
 * device; a directory where the platform opens none), or no permission.
 */
function metadataOnly(err: unknown): boolean {
  if (err instanceof ToolError) return err.kind === "not_file";
  const code = (err as NodeJS.ErrnoException).code;
  return code === "EACCES" || code === "EPERM" || code === "EISDIR";
}

function infoOf(st: Stats | BigIntStats): FileInfo {
  const big = typeof st.size === "bigint" ? (st as BigIntStats) : undefined;
  return {
    size: Number(st.size),
    created: big ? dateOfNs(big.birthtimeNs) : st.birthtime,
    modified: big ? dateOfNs(big.mtimeNs) : st.mtime,
    accessed: big ? dateOfNs(big.atimeNs) : st.atime,
    isDirectory: st.isDirectory(),
    isFile: st.isFile(),
    mode: Number(st.mode) & 0o7777,
    type: st.isDirectory() ? "directory" : st.isFile() ? "file" : "other",
  };
}

/**
 * A time in ns as a number stat's Date gives it (ms rounded, as the official server shows it): a BigIntStats'
 * own Date truncates the ms, which is a millisecond off in about half of all files.
 */
function dateOfNs(ns: bigint): Date {
  return new Date(Math.round(Number(ns / 1_000_000_000n) * 1e3 + Number(ns % 1_000_000_000n) / 1e6));
}

/** `rwxr-xr-x` style, with s/S and t/T for the special bits. */
export function symbolicMode(mode: number): string {
  const r = (bit: number, c: string) => (mode & bit ? c : "-");
  const x = (bit: number, special: number, on: string, off: string) =>
    mode & special ? (mode & bit ? on : off) : mode & bit ? "x" : "-";
  return (
    r(0o400, "r") +
    r(0o200, "w") +
    x(0o100, 0o4000, "s", "S") +
    r(0o040, "r") +
    r(0o020, "w") +
    x(0o010, 0o2000, "s", "S") +
    r(0o004, "r") +
    r(0o002, "w") +
    x(0o001, 0o1000, "t", "T")
  );
}
