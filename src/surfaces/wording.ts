import {
  type ErrorDetail,
  type ErrorKind,
  type ReasonOf,
  ToolError,
  ToolErrorGroup,
  toClientMessage,
} from "../core/errors.js";
import { printable } from "../core/paths.js";

/** What a case's words may use: the path (made printable; "" when none is known) and the error's detail. */
export interface CaseInput {
  readonly path: string;
  readonly detail: ErrorDetail;
}

type CaseWords = (e: CaseInput) => string;

/** Every case of every kind (`ERROR_REASONS`, and each kind's plain case), worded once. */
export type CaseTable = { readonly [K in ErrorKind]: Readonly<Record<ReasonOf<K> | "plain", CaseWords>> };

/** "<before>i of n<after>" when the call gave more than one edit, else "". */
function editOf(e: CaseInput, before: string, after: string): string {
  const d = e.detail.edit;
  return d !== undefined && d.total > 1 ? `${before}${d.index + 1} of ${d.total}${after}` : "";
}

/** A value from the client (a segment, a name) as it may be shown. */
const shown = (v: number | string | undefined) => printable(String(v ?? ""));

/**
 * The official filesystem server's words for every case the core tells apart, with mcpfs's own where the
 * official server has none. Each names the requested path (never a root or an internal path) and, where the
 * client can do something about it, what to do; `test/parity` checks the official ones byte for byte. The
 * filesystem surface's table is this one; the workspace surface's falls back to it.
 */
const OFFICIAL_WORDS: CaseTable = {
  invalid: {
    plain: (e) => `Invalid argument${e.detail.parameter ? ` ${e.detail.parameter}` : ""}: ${e.path}`,
    edit_empty: (e) =>
      `${editOf(e, "Edit ", ": ")}${e.detail.edit?.oldName} is empty; give the exact text to replace. No edit was applied.`,
    path_type: () => "Invalid path: expected a string",
    path_empty: () => "Invalid path: the path is empty",
    path_nul: (e) => `Invalid path: contains a NUL byte: ${e.path}`,
    path_url: (e) => `Invalid path: not a usable file:// URL: ${e.path}`,
    path_too_long: (e) =>
      `File name too long: the path is over the platform limit (${e.detail.limit}): ${e.path}`,
    name_too_long: (e) => `File name too long: ${e.path}`,
    trailing_dot_space: (e) =>
      `Invalid path: Windows ignores trailing dots and spaces in '${shown(e.detail.actual)}'; name it without them: ${e.path}`,
    symlink_loop: (e) => `Too many levels of symbolic links: ${e.path}`,
    twice_in_change: (e) => `The same file appears twice in one change: ${e.path}`,
    copy_into_itself: (e) => `Cannot copy a directory into itself: ${e.path}`,
    ambiguous_component: (e) =>
      `Ambiguous path component: ${shown(e.detail.actual)}${e.path ? ` (in ${e.path})` : ""}; name it with its exact case`,
  },
  outside_roots: {
    plain: (e) => `Access denied - path outside allowed directories: ${e.path}`,
    parent_segment: (e) => `Invalid path: '..' is not allowed in paths: ${e.path}`,
  },
  denied: {
    plain: (e) => `Access denied: ${e.path}`,
    windows_path: (e) => `Access denied - Windows-style path received on a POSIX host: ${e.path}`,
    unc_path: (e) => `Access denied - UNC path received on a POSIX host: ${e.path}`,
    stream_syntax: (e) => `Access denied - alternate data stream syntax is not a path here: ${e.path}`,
    stream_name: (e) =>
      `Access denied - alternate data stream syntax (':' in a name) is not supported: ${e.path}`,
    device_path: (e) => `Access denied - device namespace paths are not supported: ${e.path}`,
    reserved_name: (e) =>
      `Access denied - '${shown(e.detail.actual)}' is a reserved device name on Windows: ${e.path}`,
    alias: (e) =>
      `Access denied - cannot tell which entry this name is another name of; use its full name: ${e.path}`,
    git_dir_write: (e) =>
      `Access denied - writes inside .git directories are refused: ${e.path}. ` +
      "Start the server with --allow-git-dir-writes to allow them.",
    changed_while_opening: (e) => `Access denied - the path changed while it was being opened: ${e.path}`,
  },
  os_denied: { plain: (e) => `Permission denied: ${e.path}` },
  ignored: {
    plain: (e) =>
      `File '${e.path}' is excluded by .gitignore and cannot be accessed. Use list_directory() to see available files.`,
    holds_hidden: (e) =>
      `Refused: '${e.path}' holds entries that cannot be accessed (excluded by .gitignore or the server's rules), so it cannot be moved or deleted whole. Move or delete its other entries one by one.`,
    deny_rule: (e) => `Access denied - the server's --deny rules exclude this path: ${e.path}`,
  },
  read_only: { plain: (e) => `Access denied - read-only location: ${e.path}` },
  not_found: {
    plain: (e) => `No such file or directory: ${e.path}`,
    file: (e) => `No such file: ${e.path}`,
    parent: (e) => `Parent directory does not exist: ${e.path}`,
    // The official server's words, then which edit and the file's closest region.
    edit_not_found: (e) => {
      const d = e.detail.edit;
      const near = d?.nearest ? `\n\n${d.nearest}` : "";
      return `Could not find exact match for edit:\n${d?.oldText}${editOf(e, "\n(edit ", "; no edit was applied)")}${near}`;
    },
  },
  exists: {
    plain: (e) => `Already exists: ${e.path}`,
    destination: (e) => `Destination already exists: ${e.path}`,
    destination_dir: (e) => `Destination is a directory: ${e.path}`,
    destination_not_dir: (e) => `Destination exists and is not a directory: ${e.path}`,
    destination_not_file: (e) => `Destination exists and is not a file: ${e.path}`,
  },
  not_file: {
    plain: (e) => `Is a directory, not a file: ${e.path}`,
    not_regular: (e) => `Not a regular file: ${e.path}`,
    not_regular_or_dir: (e) => `Not a regular file or directory: ${e.path}`,
  },
  not_directory: {
    plain: (e) => `Not a directory: ${e.path}`,
    parent_is_file: (e) => `Not a directory: a parent of ${e.path} is a file`,
  },
  not_empty: { plain: (e) => `Directory not empty: ${e.path}` },
  too_large: {
    plain: (e) =>
      `Too large: ${e.path}${e.detail.limit === undefined ? "" : ` (the limit is ${e.detail.limit} bytes)`}`,
    change_whole: (e) =>
      `File too large to change in one piece (${e.detail.actual} bytes, limit ${e.detail.limit}): ${e.path}`,
    resource_blob: (e) =>
      `File too large to return as a resource (${e.detail.actual} bytes; the limit is ${e.detail.limit} bytes): ${e.path}`,
  },
  not_utf8: { plain: (e) => `Not a UTF-8 text file: ${e.path}` },
  conflict: {
    plain: (e) => `Changed meanwhile: ${e.path}. Read it again, then retry.`,
    changed_while_reading: (e) => `The file changed while it was being read; try again: ${e.path}`,
    edit_ambiguous: (e) => {
      const d = e.detail.edit;
      const lines = d?.lines ?? [];
      const at = lines.length > 20 ? `${lines.slice(0, 20).join(", ")}, …` : lines.join(", ");
      const after = d?.countedAfter ? " (counted after the preceding edits)" : "";
      const all = d?.replaceAllName ? `, or set ${d.replaceAllName}` : "";
      return (
        `${editOf(e, "Edit ", ": ")}${d?.oldName} matches ${lines.length} times, at lines ${at}${after}; ` +
        `include more surrounding text so it matches exactly once${all}. No edit was applied.`
      );
    },
    edit_overlap: (e) => {
      const d = e.detail.edit;
      return (
        `Edits ${(d?.overlapsWith ?? 0) + 1} and ${(d?.index ?? 0) + 1} overlap (line ${d?.lines?.[0]}); ` +
        "combine them into one edit. No edit was applied."
      );
    },
  },
  no_roots: { plain: () => "No allowed directories are configured" },
  journal_full: {
    plain: (e) =>
      `Refused: the undo journal has no room without dropping a recent change; nothing was changed: ${e.path}`,
  },
  cancelled: { plain: (e) => `Cancelled: ${e.path}` },
  io: {
    plain: (e) => `Operation failed: ${e.path}`,
    resolve: (e) => `Cannot resolve path: ${e.path}`,
  },
};

/** The words of a data error's case in `table` (`path`: the requested path when the detail names none). */
export function caseText(table: CaseTable, err: ToolError, requested?: string): string {
  const at = err.detail.path ?? requested;
  const cases = table[err.kind] as Readonly<Record<string, CaseWords>>;
  const words = cases[err.detail.reason ?? "plain"] ?? cases.plain!;
  return words({ path: at === undefined ? "" : printable(at), detail: err.detail });
}

/**
 * The official text of any error of a call (`toClientMessage` for a system error or a server fault, which
 * says it is one): what a surface's table then frames or replaces.
 */
export function clientMessage(err: unknown, requested?: string, during?: string): string {
  // A group's items are worded one by one, then composed.
  if (err instanceof ToolErrorGroup) return err.compose(err.errors.map((e) => clientMessage(e, requested)));
  if (err instanceof ToolError && err.data) return caseText(OFFICIAL_WORDS, err, requested);
  return toClientMessage(err, requested, during);
}
