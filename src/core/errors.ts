/**
 * An error whose message is safe to show to the client: it names only the path the client asked for,
 * never the allow-list, the server's cwd or another internal path.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: ToolErrorCode = "invalid",
  ) {
    super(message);
    this.name = "ToolError";
  }
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
  | "cancelled"
  | "io";

/**
 * Turns any error from a core operation into a client-safe message. Node's own errors carry absolute
 * paths (`ENOENT: ..., open '/abs'`), so they are rewritten to name the requested path only.
 */
export function toClientMessage(err: unknown, requested?: string): string {
  if (err instanceof ToolError) return err.message;
  const e = err as NodeJS.ErrnoException;
  const what = requested === undefined ? "" : `: ${requested}`;
  switch (e?.code) {
    case "ENOENT":
      return `No such file or directory${what}`;
    case "EEXIST":
      return `Already exists${what}`;
    case "EISDIR":
      return `Is a directory, not a file${what}`;
    case "ENOTDIR":
      return `Not a directory${what}`;
    case "EACCES":
    case "EPERM":
      return `Permission denied${what}`;
    case "ELOOP":
      return `Too many levels of symbolic links${what}`;
    case "ENOTEMPTY":
      return `Directory not empty${what}`;
    case "ENAMETOOLONG":
      return `File name too long${what}`;
    case "ENOSPC":
      return `No space left on device${what}`;
    case "EROFS":
      return `Read-only file system${what}`;
    case "EBUSY":
      return `Resource busy${what}`;
    case "ABORT_ERR":
      return `Cancelled${what}`;
    default:
      if (e?.name === "AbortError") return `Cancelled${what}`;
      return `Operation failed${what}${e?.code ? ` (${e.code})` : ""}`;
  }
}

export function isErrno(err: unknown, ...codes: string[]): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && codes.includes(code);
}
