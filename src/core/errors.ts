import { printable } from "./echo.js";

/**
 * An error whose message is safe to show to the client: it names only the path the client asked for,
 * never the allow-list, the server's cwd or another internal path.
 */
export class ToolError extends Error {
  constructor(
    /** The default wording (the filesystem surface's); a surface words a `detail` kind its own way. */
    message: string,
    readonly code: ToolErrorCode = "invalid",
    /** What exactly happened, with its parameters, where the wording depends on the surface or the tool. */
    readonly detail?: ErrorDetail,
  ) {
    super(message);
    this.name = "ToolError";
  }
}

/**
 * The kinds of error a surface or tool words its own way, each with the parameters its wordings need.
 * Decided on by kind (`SurfacePolicy.errorText`, a tool's own wording), never by matching message text.
 */
export type ErrorDetail =
  /** A file's bytes are not UTF-8 text (a change would corrupt it). `path`: as the client gave it. */
  | { readonly kind: "not_utf8"; readonly path: string }
  /** The operating system refused access (EACCES, EPERM), as opposed to a gate of this server. */
  | { readonly kind: "os_denied"; readonly path: string };

/** A path that is not there, worded as a system ENOENT on it is (`toClientMessage`). */
export function noSuchPathError(requested: string): ToolError {
  return new ToolError(`${SYSTEM_WORDS.ENOENT}: ${requested}`, "not_found");
}

/**
 * Several per-item errors reported as one (e.g. every file of an all-or-nothing edit that failed). Keeps
 * the items so a caller can re-render each (say, a conflict with a diff) under the same wording.
 */
export class ToolErrorGroup extends ToolError {
  constructor(
    readonly errors: readonly ToolError[],
    readonly compose: (messages: readonly string[]) => string,
    code: ToolErrorCode = "invalid",
  ) {
    super(compose(errors.map((e) => e.message)), code);
    this.name = "ToolErrorGroup";
  }
}

export type ToolErrorCode =
  | "invalid"
  | "denied"
  /** Out of reach by the surface's ignore policy (`.git/`, .gitignore); worded by the gate, never re-worded. */
  | "ignored"
  | "read_only"
  | "not_found"
  | "exists"
  | "not_file"
  | "not_directory"
  | "too_large"
  | "conflict"
  | "no_roots"
  /** The undo journal has no room without dropping a recent change (`--journal-min-age`): nothing changed. */
  | "journal_full"
  | "cancelled"
  | "io";

/** How a system error is worded, by its code (followed by `: <requested path>` when there is one). */
const SYSTEM_WORDS: Readonly<Record<string, string>> = {
  ENOENT: "No such file or directory",
  EEXIST: "Already exists",
  EISDIR: "Is a directory, not a file",
  ENOTDIR: "Not a directory",
  EACCES: "Permission denied",
  EPERM: "Permission denied",
  ELOOP: "Too many levels of symbolic links",
  ENOTEMPTY: "Directory not empty",
  ENAMETOOLONG: "File name too long",
  ENOSPC: "No space left on device",
  EROFS: "Read-only file system",
  EBUSY: "Resource busy",
  ABORT_ERR: "Cancelled",
};

/**
 * Whether an error is the server's own fault, not an answer about the request: neither a ToolError, nor an
 * operating system's error (an errno code: ENOENT, EACCES, EXDEV, …), nor a cancellation. A missing module,
 * a failed assertion, a TypeError, Node's ERR_* codes: bugs, logged with their stack and worded as such.
 */
export function isServerFault(err: unknown): boolean {
  if (err instanceof ToolError) return false;
  const e = err as NodeJS.ErrnoException | undefined;
  if (e?.name === "AbortError" || e?.code === "ABORT_ERR") return false;
  return !(typeof e?.code === "string" && /^E[A-Z0-9]+$/.test(e.code));
}

/**
 * Turns any error from a core operation into a client-safe message. Node's own errors carry absolute
 * paths (`ENOENT: ..., open '/abs'`), so they are rewritten to name the requested path only. A server fault
 * says it is one (`during`: what the server was doing, e.g. the tool's name), never reads like a problem with
 * the path.
 */
export function toClientMessage(err: unknown, requested?: string, during?: string): string {
  if (err instanceof ToolError) return err.message;
  if (isServerFault(err)) {
    const where = during === undefined ? "" : ` while running ${during}`;
    const not = requested === undefined ? "" : `, not a problem with ${requested}`;
    return `Internal error in mcpfs${where} (a server bug${not}); details are in the server log.`;
  }
  const e = err as NodeJS.ErrnoException;
  const what = requested === undefined ? "" : `: ${printable(requested)}`;
  const words =
    typeof e?.code === "string" && Object.hasOwn(SYSTEM_WORDS, e.code) ? SYSTEM_WORDS[e.code] : undefined;
  if (words !== undefined) return `${words}${what}`;
  if (e?.name === "AbortError") return `Cancelled${what}`;
  return `Operation failed${what}${e?.code ? ` (${e.code})` : ""}`;
}

export function isErrno(err: unknown, ...codes: string[]): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && codes.includes(code);
}
