import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError } from "./errors.js";

export { clipped, escapeName, printable } from "./echo.js";

/** Lexical helpers: no filesystem access here, so they can be property-tested exhaustively. */

/** True when a path segment names a git directory (`.git`): the one test for it, so a case policy lands once. */
export function isGitDirName(name: string | undefined, foldsCase = false): boolean {
  return name === ".git" || (foldsCase && name?.toLowerCase() === ".git");
}

/** True when any segment of `rel` (either separator) is a `.git` directory, at any depth (nested repos too). */
export function hasGitDirSegment(rel: string, foldsCase = false): boolean {
  return rel.split(/[\\/]/).some((s) => isGitDirName(s, foldsCase));
}

/**
 * How one volume compares names, for access decisions only (I/O always uses the names on disk). `exact`:
 * byte-for-byte, as ext4 and case-sensitive APFS. `folded`: case-insensitive, as NTFS, default APFS/HFS+,
 * FAT and exFAT. Both normalise a Windows drive letter, which never differs between spellings of one path.
 */
export interface NamePolicy {
  readonly foldsCase: boolean;
  /** The comparison key of a name or path. */
  fold(name: string): string;
  equal(a: string, b: string): boolean;
  /** `child` equals `parent` or lies below it, by whole segments (CVE-2025-53110), names compared by this policy. */
  isAtOrBelow(child: string, parent: string): boolean;
}

function makeNamePolicy(foldsCase: boolean, sep: string, win: boolean): NamePolicy {
  const drive = (p: string) => (win && /^[a-z]:/.test(p) ? p[0]!.toUpperCase() + p.slice(1) : p);
  // toLowerCase is per code point and never produces a separator, so segment boundaries survive folding.
  const fold = foldsCase ? (p: string) => p.toLowerCase() : drive;
  const plain = !foldsCase && !win;
  return {
    foldsCase,
    fold,
    // Exact names on POSIX: a plain comparison (walks call this for every entry).
    equal: plain ? (a, b) => a === b : (a, b) => a === b || fold(a) === fold(b),
    isAtOrBelow(child, parent) {
      if (isWithinSep(child, parent, sep)) return true;
      return !plain && isWithinSep(fold(child), fold(parent), sep);
    },
  };
}

/** The policies of this host (`sep` and drive letters follow the platform). */
export const EXACT_NAMES: NamePolicy = makeNamePolicy(false, path.sep, process.platform === "win32");
export const FOLDED_NAMES: NamePolicy = makeNamePolicy(true, path.sep, process.platform === "win32");

function isWithinSep(child: string, parent: string, sep: string): boolean {
  if (child === parent) return true;
  const base = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(base);
}

/** `~` and `~/x` expand to the home directory; `~user` is left alone, as the official server does. */
export function expandHome(p: string): string {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/")) return path.join(os.homedir(), p.slice(2));
  return p;
}

const WINDOWS_DRIVE = /^[A-Za-z]:([\\/]|$)/;
const ADS_SUFFIX = /:\$[A-Za-z_]+$/;

/** The longest path the platform names: 32,767 UTF-16 units on Windows (long paths), 4,096 bytes elsewhere. */
const PATH_LIMIT = process.platform === "win32" ? "32,767 characters" : "4,096 bytes";

/** Whether `p` is longer than any path the platform can open (linear time; the byte count only near the limit). */
function overPathLimit(p: string): boolean {
  if (process.platform === "win32") return p.length > 32_767;
  // A UTF-16 unit is 1 to 3 UTF-8 bytes: the exact count is needed only between the two bounds.
  if (p.length > 4096) return true;
  return p.length * 3 > 4096 && Buffer.byteLength(p) > 4096;
}

/**
 * Rejects strings no client path may be: empty, NUL bytes, Windows drive / UNC / alternate-data-stream
 * forms on POSIX (they would otherwise become odd literal names inside a root). Turns a `file://` URL into
 * its path. Returns the string to resolve. `platform` is whose rules apply: the host's (Windows' are pure
 * string checks, so a test checks them on any host).
 */
export function screenRequestedPath(
  requested: unknown,
  platform: NodeJS.Platform = process.platform,
): string {
  if (typeof requested !== "string") throw new ToolError("invalid", { reason: "path_type" });
  // First, before any work that grows with the length (resolving a huge path took seconds per call).
  if (overPathLimit(requested))
    throw new ToolError("invalid", { reason: "path_too_long", path: requested, limit: PATH_LIMIT });
  if (requested.trim() === "") throw new ToolError("invalid", { reason: "path_empty" });
  if (requested.includes("\0")) throw new ToolError("invalid", { reason: "path_nul", path: requested });
  let p = requested;
  if (/^file:/i.test(p)) {
    try {
      p = fileURLToPath(p);
    } catch {
      throw new ToolError("invalid", { reason: "path_url", path: requested });
    }
    if (p.includes("\0")) throw new ToolError("invalid", { reason: "path_nul", path: requested });
  }
  if (platform === "win32") p = screenWindowsPath(p, requested);
  else {
    if (WINDOWS_DRIVE.test(p)) throw new ToolError("denied", { reason: "windows_path", path: requested });
    if (p.startsWith("\\\\")) throw new ToolError("denied", { reason: "unc_path", path: requested });
    if (p.split(/[\\/]/).some((seg) => ADS_SUFFIX.test(seg) || seg.includes("::")))
      throw new ToolError("denied", { reason: "stream_syntax", path: requested });
  }
  return expandHome(p);
}

/** Names Windows maps to devices in any directory, with any extension (`NUL`, `com1.txt`, `CONIN$`). */
const RESERVED_DEVICE =
  /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$) *(\..*)?$/is;

/**
 * Windows forms that do not name a plain file: `\\?\C:\x` is read as `C:\x` (and `\\?\UNC\h\s` as `\\h\s`),
 * the device namespace `\\.\` is refused, and so is any segment that is an alternate data stream (`a.txt:s`),
 * a reserved device name, or ends in a dot or space (Windows drops those, so `.git.` would be `.git`).
 */
function screenWindowsPath(p: string, requested: string): string {
  let q = p;
  if (/^[\\/]{2}\?[\\/]unc[\\/]/i.test(q)) q = `\\\\${q.slice(8)}`;
  else if (/^[\\/]{2}\?[\\/][a-z]:/i.test(q)) q = q.slice(4);
  if (/^[\\/]{2}[.?][\\/]/.test(q)) throw new ToolError("denied", { reason: "device_path", path: requested });
  const segs = q.split(/[\\/]/);
  segs.forEach((seg, i) => {
    if (i === 0 && /^[a-z]:$/i.test(seg)) return;
    if (seg.includes(":")) throw new ToolError("denied", { reason: "stream_name", path: requested });
    const bare = seg.replace(/[. ]+$/, "");
    if (RESERVED_DEVICE.test(bare))
      throw new ToolError("denied", { reason: "reserved_name", path: requested, actual: seg });
    if (seg !== "." && seg !== ".." && seg !== bare)
      throw new ToolError("invalid", { reason: "trailing_dot_space", path: requested, actual: seg });
  });
  return q;
}

/**
 * True when any segment of the path is `..` (the workspace surface refuses these outright). A file:// URL is
 * checked as sent, with `%2e` read as `.`, because URL parsing silently collapses `..` and `%2e%2e`.
 */
export function hasParentSegment(p: string): boolean {
  const forms = /^file:/i.test(p) ? [p, p.replace(/%2e/gi, ".")] : [p];
  return forms.some((f) => f.split(/[\\/]+/).some((seg) => seg === ".."));
}

/** Splits a relative path into its segments, dropping empty and `.` ones. */
export function segments(rel: string): string[] {
  return rel.split(path.sep).filter((s) => s !== "" && s !== ".");
}
