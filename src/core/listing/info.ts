import { statSync } from "node:fs";
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
}

/** Metadata of what the resolved path names (symlinks followed, as the resolution did). */
export async function fileInfo(target: ResolvedPath): Promise<FileInfo> {
  // One stat, synchronously: cheaper than a thread-pool round trip on this hot, tiny call.
  const st = statSync(target.real);
  return {
    size: st.size,
    created: st.birthtime,
    modified: st.mtime,
    accessed: st.atime,
    isDirectory: st.isDirectory(),
    isFile: st.isFile(),
    mode: st.mode & 0o7777,
    type: st.isDirectory() ? "directory" : st.isFile() ? "file" : "other",
  };
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
