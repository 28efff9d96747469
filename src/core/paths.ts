import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError } from "./errors.js";

/** Lexical helpers: no filesystem access here, so they can be property-tested exhaustively. */

/** True when `child` equals `parent` or lies below it, compared by whole path segments (CVE-2025-53110). */
export function isWithin(child: string, parent: string): boolean {
  if (child === parent) return true;
  const base = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(base);
}

/** True when a path segment names a git directory (`.git`): the one test for it, so a case policy lands once. */
export function isGitDirName(name: string): boolean {
  return name === ".git";
}

/** True when any segment of `rel` (either separator) is a `.git` directory, at any depth (nested repos too). */
export function hasGitDirSegment(rel: string): boolean {
  return rel.split(/[\\/]/).some(isGitDirName);
}

/** `~` and `~/x` expand to the home directory; `~user` is left alone, as the official server does. */
export function expandHome(p: string): string {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/")) return path.join(os.homedir(), p.slice(2));
  return p;
}

const WINDOWS_DRIVE = /^[A-Za-z]:([\\/]|$)/;
const ADS_SUFFIX = /:\$[A-Za-z_]+$/;

/**
 * Rejects strings no client path may be: empty, NUL bytes, Windows drive / UNC / alternate-data-stream
 * forms on POSIX (they would otherwise become odd literal names inside a root). Turns a `file://` URL into
 * its path. Returns the string to resolve.
 */
export function screenRequestedPath(requested: unknown): string {
  if (typeof requested !== "string") throw new ToolError("Invalid path: expected a string");
  if (requested.trim() === "") throw new ToolError("Invalid path: the path is empty");
  const shown = printable(requested);
  if (requested.includes("\0")) throw new ToolError(`Invalid path: contains a NUL byte: ${shown}`);
  let p = requested;
  if (/^file:/i.test(p)) {
    try {
      p = fileURLToPath(p);
    } catch {
      throw new ToolError(`Invalid path: not a usable file:// URL: ${shown}`);
    }
    if (p.includes("\0")) throw new ToolError(`Invalid path: contains a NUL byte: ${shown}`);
  }
  if (process.platform !== "win32") {
    if (WINDOWS_DRIVE.test(p))
      throw new ToolError(`Access denied - Windows-style path received on a POSIX host: ${shown}`, "denied");
    if (p.startsWith("\\\\"))
      throw new ToolError(`Access denied - UNC path received on a POSIX host: ${shown}`, "denied");
    if (p.split(/[\\/]/).some((seg) => ADS_SUFFIX.test(seg) || seg.includes("::")))
      throw new ToolError(
        `Access denied - alternate data stream syntax is not a path here: ${shown}`,
        "denied",
      );
  }
  return expandHome(p);
}

/**
 * True when any segment of the path is `..` (the workspace surface refuses these outright). A file:// URL is
 * checked as sent, with `%2e` read as `.`, because URL parsing silently collapses `..` and `%2e%2e`.
 */
export function hasParentSegment(p: string): boolean {
  const forms = /^file:/i.test(p) ? [p, p.replace(/%2e/gi, ".")] : [p];
  return forms.some((f) => f.split(/[\\/]+/).some((seg) => seg === ".."));
}

/** Characters that could start a new line or drive a terminal: C0, DEL, C1, Unicode line breaks, bidi controls. */
const LINE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const LINE_UNSAFE_ALL = new RegExp(LINE_UNSAFE.source, "g");

/**
 * A name or path made safe for one line of a text reply: a file named `evil\n[DIR] x` must not show as two
 * entries. Unsafe characters become `\xNN` / `\uNNNN`; structured fields keep the real name. Every
 * formatter that prints names uses this one function.
 */
export function escapeName(name: string): string {
  if (!LINE_UNSAFE.test(name)) return name;
  return name.replace(LINE_UNSAFE_ALL, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
  });
}

/** A path string made safe to echo in a message: escaped as `escapeName` does, very long ones cut. */
export function printable(p: string): string {
  const escaped = escapeName(p);
  return escaped.length > 1024 ? `${escaped.slice(0, 1000)}…(${escaped.length} chars)` : escaped;
}

/** Splits a relative path into its segments, dropping empty and `.` ones. */
export function segments(rel: string): string[] {
  return rel.split(path.sep).filter((s) => s !== "" && s !== ".");
}
