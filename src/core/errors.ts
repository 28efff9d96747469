import { printable } from "./echo.js";

/**
 * An error that is an answer about the request. The core says what happened, as data: its `kind` and its
 * `detail` (the requested path, the parameter, the limit, what was expected and found, …); each surface
 * words every kind once in its table (`surfaces/wording.ts` holds the official server's words, which are
 * the filesystem surface's table), so no tool re-words an error and the core writes no reply text:
 * `message` is then only a diagnostic for the server's log.
 *
 * The older form, a ToolError built from a message of the core's own with an optional kind, still carries
 * the core's text (the official wording); `scripts/check-error-texts.mjs` (npm run lint) counts what is left
 * of it and fails when it grows.
 */
export class ToolError extends Error {
  readonly kind: ErrorKind;
  /** The parameters of the error a surface words it by. */
  readonly detail: ErrorDetail;
  /** `true` when the core gave no text: a surface's table words it from `kind` and `detail`. */
  readonly data: boolean;
  constructor(kind: ErrorKind, detail: ErrorDetail);
  /** The older form: the core's own text (the official wording). */
  constructor(message: string, kind?: ErrorKind, detail?: ErrorDetail);
  constructor(first: string, second?: ErrorKind | ErrorDetail, third?: ErrorDetail) {
    const data = typeof second === "object";
    const kind = data ? (first as ErrorKind) : ((second as ErrorKind | undefined) ?? "invalid");
    const detail = (data ? second : third) ?? {};
    super(data ? diagnostic(kind, detail) : first);
    this.name = "ToolError";
    this.kind = kind;
    this.detail = detail;
    this.data = data;
  }
}

/** A data error's line in the server's log: kind, case and path (never a reply's text). */
function diagnostic(kind: ErrorKind, d: ErrorDetail): string {
  return `${kind}${d.reason === undefined ? "" : ` (${d.reason})`}${d.path === undefined ? "" : `: ${printable(d.path)}`}`;
}

/**
 * Every kind of error the core throws, closed: a surface's wording table has an entry for each (a unit test
 * fails when a kind is added without one). Decided on by kind, never by matching message text.
 */
const ERROR_KINDS = [
  /** A parameter or input the call cannot use (a bad pattern, an empty old text, a malformed diff). */
  "invalid",
  /** The path leaves the allowed directories: on its face, through a symlink, or by `..` where refused. */
  "outside_roots",
  /** A rule of this server refuses it (`--deny`, an alias name, a write into `.git`). */
  "denied",
  /** The operating system refused access (EACCES, EPERM), as opposed to a rule of this server. */
  "os_denied",
  /** Out of reach by the surface's ignore policy (`.git/`, .gitignore); worded by the gate. */
  "ignored",
  "read_only",
  "not_found",
  "exists",
  /** The path is a directory or another non-file where a file is needed. */
  "not_file",
  /** The path, or one of its parents, is not a directory where one is needed. */
  "not_directory",
  /** A directory that is not empty where an empty one is needed (delete without recursive). */
  "not_empty",
  "too_large",
  /** A file's bytes are not UTF-8 text (reading it as text, or a change, would corrupt it). */
  "not_utf8",
  /** The file changed since it was read, or something else changed it meanwhile (a lost update). */
  "conflict",
  /** No allowed directory is configured. */
  "no_roots",
  /** The undo journal has no room without dropping a recent change (`--journal-min-age`): nothing changed. */
  "journal_full",
  "cancelled",
  /** An input/output failure of the operating system the call cannot fix by changing its arguments. */
  "io",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/**
 * What happened, beyond its kind: which of the kind's cases (`reason`, one of `ERROR_REASONS[kind]`; none
 * for the kind's plain case) and its values. A surface words each case once from these.
 */
export interface ErrorDetail {
  /** The path the error is about, as the client spelled it (when the call names more than one). */
  readonly path?: string;
  /** The parameter whose value is at fault, when the error is about one. */
  readonly parameter?: string;
  /** Which case of its kind this is (`ERROR_REASONS`); absent for the kind's plain case. */
  readonly reason?: ErrorReason;
  /** A limit that was passed: a number (bytes, entries, levels), or a quantity with its unit. */
  readonly limit?: number | string;
  /** What was found (a count, a size, a value as the client gave it). */
  readonly actual?: number | string;
  /** What was expected instead. */
  readonly expected?: number | string;
  /** An edit that cannot be made (`edit_*` cases): which one, and what the file holds. */
  readonly edit?: EditDetail;
  // git, mutate, edit, fs, journal
  /** The git command or subcommand the error is about; the tool of a recorded change (`journal_full`). */
  readonly command?: string;
  /** A change of the undo journal (its id), and the change that undid it. */
  readonly change?: string;
  readonly undoneBy?: string;
  /** What a parser, a library, git or the system said, with no absolute path in it: quoted, never parsed. */
  readonly cause?: string;
  /** An entry inside the requested directory (relative to it, `/`-separated). */
  readonly entry?: string;
  /** The other path of a call that names two (a move's destination), as the client spelled it. */
  readonly destination?: string;
  /** An undo refused for paths changed since the change: its steps, paths as the surface shows them. */
  readonly steps?: readonly UndoStepDetail[];
  /** A hunk of a patch that does not apply: where it was looked for and the closest region. */
  readonly hunk?: HunkMissDetail;
  // structured, documents, code, search, images, walk, text, surfaces
  /**
   * A name the error is about, as the call or the file gave it: a symbol, a key path, a notebook cell, a
   * glob, an encoding, a command, a sheet, a reference project (or an image's stated size).
   */
  readonly name?: string;
  /** Values the words list: the candidates of an ambiguous name, a workbook's sheets, the likely encodings. */
  readonly items?: readonly string[];
}

// git, mutate, edit, fs, journal
/** One step of an undo, as its reply and its refusal show it. */
export interface UndoStepDetail {
  /** The path as the surface shows it. */
  readonly path: string;
  /** What the undo does there (restore, delete, move back, …). */
  readonly action: string;
  /** What changed there since the change (with a diff where it is text). */
  readonly changed?: string;
}

/** A hunk of a patch that was not found in its file. */
export interface HunkMissDetail {
  /** Which hunk (1-based), and its header's numbers as the patch gave them. */
  readonly index: number;
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  /** Its context/removed lines, where (0-based) it was looked for, the file's lines. */
  readonly lines: number;
  readonly near: number;
  readonly fileLines: number;
  /** The closest region: its first line (0-based), how many lines match, the first that differs (clipped). */
  readonly closest?: {
    readonly at: number;
    readonly equal: number;
    readonly differs?: { readonly line: number; readonly expected: string; readonly found: string };
  };
}

/** An edit of a call that cannot be made, as the edit engine found it. */
export interface EditDetail {
  /** Which edit (0-based) of how many the call gave. */
  readonly index: number;
  readonly total: number;
  /** The edit's old text, as the call gave it. */
  readonly oldText: string;
  /** The call's names of the old text and of replace-all (`old_string`, `replace_all=True`; "" for none). */
  readonly oldName: string;
  readonly replaceAllName: string;
  /** Lines (1-based) where it matched (ambiguous) or where edits overlap. */
  readonly lines?: readonly number[];
  /** Ambiguous: the lines were counted after the preceding edits were made. */
  readonly countedAfter?: boolean;
  /** Overlap: the other edit (0-based). */
  readonly overlapsWith?: number;
  /** Not found: the text would match with every backslash doubled (a file storing `\\`). */
  readonly backslashHint?: boolean;
  /** Not found: the file's region most like the text, as a short diff (see `core/edit/closest.ts`). */
  readonly nearest?: string;
}

/**
 * The cases of each kind the core tells apart, closed: each surface's table words every one (a unit test
 * checks the official table). A kind not listed has its plain case only.
 */
const ERROR_REASONS = {
  invalid: [
    "edit_empty",
    "path_type",
    "path_empty",
    "path_nul",
    "path_url",
    "path_too_long",
    "name_too_long",
    "trailing_dot_space",
    "symlink_loop",
    "ambiguous_component",
    "twice_in_change",
    "copy_into_itself",
    // git, mutate, edit, fs, journal
    "below_minimum",
    "out_of_range",
    "expected_hash",
    "hash_not_file",
    "move_root",
    "move_into_itself",
    "no_files",
    "patch_parse",
    "patch_empty",
    "patch_binary",
    "patch_no_path",
    "journal_off",
    "git_command",
    "git_flag",
    "git_flag_value",
    "git_no_dashes",
    "git_double_dash",
    "git_pathspec_twice",
    "git_format_gpg",
    "git_arg_nul",
    "git_arg_outside",
    "git_refspec",
    "git_remote",
    "git_prune_tags",
    "git_fetch_all",
    "git_branch_read",
    "git_show_current",
    "git_check_ignore",
    "git_search",
    "git_not_repo",
    "git_failed",
    // structured, documents, code, search, images, walk, text, surfaces
    "no_grammar",
    "symbol_ambiguous",
    "symbol_shared",
    "symbol_name_empty",
    "syntax_errors",
    "parser_missing",
    "parse_failed",
    "doc_type",
    "doc_encrypted",
    "doc_unreadable",
    "doc_csv_not_utf8",
    "doc_spec",
    "doc_past_end",
    "doc_no_sheet",
    "doc_corrupt",
    "image_header",
    "image_corrupt",
    "image_codec_missing",
    "image_reencode",
    "glob_too_long",
    "too_many_globs",
    "glob_invalid",
    "glob_negated_extglob",
    "regex_invalid",
    "pattern_too_long",
    "pattern_too_complex",
    "max_results",
    "not_structured",
    "json_invalid",
    "json_empty",
    "toml_invalid",
    "yaml_invalid",
    "yaml_alias_unanchored",
    "yaml_alias_recursive",
    "yaml_alias_expansion",
    "yaml_duplicate_key",
    "yaml_alias_path",
    "yaml_single_value",
    "yaml_merge_key",
    "not_in_place",
    "path_through_scalar",
    "key_path_syntax",
    "set_past_end",
    "merge_needs_objects",
    "path_below_document",
    "value_needed",
    "line_range_outside",
    "line_ranges_overlap",
    "notebook_not_json",
    "notebook_no_cells",
    "notebook_insert_at",
    "result_not_json",
    "result_not_notebook",
    "unknown_encoding",
    "encoding_roundtrip",
    "unencodable_char",
    "line_count",
    "head_and_tail",
    "range_with_head_tail",
    "line_number",
    "range_reversed",
    "path_needed",
    "files_empty",
    "max_lines_negative",
    "file_path_type",
    "dir_path_type",
    "content_type",
    "content_surrogates",
    "path_param_empty",
    "edit_shapes_both",
    "edit_shape_missing",
    "git_unknown_command",
    "line_range_pair",
    "line_range_integers",
    "line_range_min",
    "glob_or_pattern",
    "not_image",
  ],
  outside_roots: ["parent_segment"],
  denied: [
    "windows_path",
    "unc_path",
    "stream_syntax",
    "stream_name",
    "device_path",
    "reserved_name",
    "alias",
    "git_dir_write",
    "changed_while_opening",
    // git, mutate, edit, fs, journal
    "moved_link_outside",
    "moved_link_read_only",
    "copied_link_outside",
    "move_too_many",
    "changed_while_deleting",
    "delete_root",
    "journal_hash",
    "journal_record",
    "change_root_gone",
    "git_outside",
    "git_config_first_wins",
    "git_config_unsayable",
    "git_config_too_many",
    "git_config_include",
    "git_option",
    "git_remote_outside",
    // structured, documents, code, search, images, walk, text, surfaces
    "patch_absolute",
    "delete_project_root",
    "move_root",
  ],
  ignored: [
    "holds_hidden",
    "deny_rule",
    // git, mutate, edit, fs, journal
    "git_deny_follow",
    "git_deny_show",
    "git_deny_ls_tree",
    // structured, documents, code, search, images, walk, text, surfaces
    "list_git_dir",
    "list_ignored_dir",
  ],
  not_directory: [
    "parent_is_file",
    // structured, documents, code, search, images, walk, text, surfaces
    "is_file",
  ],
  not_found: [
    "edit_not_found",
    "file",
    "parent",
    // git, mutate, edit, fs, journal
    "directory",
    "change",
    "patch_file",
    // structured, documents, code, search, images, walk, text, surfaces
    "symbol",
    "key_path",
    "delete_missing",
    "no_container",
    "cell",
    "cell_id",
    "reference_project",
    "reference_url_only",
  ],
  exists: [
    "destination",
    "destination_dir",
    "destination_not_dir",
    "destination_not_file",
    // git, mutate, edit, fs, journal
    "destination_merge",
    "destination_replace",
    "not_dir",
    "patch_creates",
  ],
  not_file: [
    "not_regular",
    "not_regular_or_dir",
    // git, mutate, edit, fs, journal
    "copy_special",
  ],
  conflict: [
    "edit_ambiguous",
    "edit_overlap",
    "changed_while_reading",
    // git, mutate, edit, fs, journal
    "created_meanwhile",
    "appeared_meanwhile",
    "not_undoable",
    "already_undone",
    "undo_changed",
    "patch_delete_content",
    "patch_hunk",
  ],
  too_large: [
    "change_whole",
    "resource_blob",
    // git, mutate, edit, fs, journal
    "media",
    "copy_entries",
    // structured, documents, code, search, images, walk, text, surfaces
    "code_size",
    "document",
    "doc_inflated",
    "doc_timeout",
    "doc_memory",
    "image_pixels",
    "image_fit",
    "image_timeout",
    "image_memory",
    "read_wide",
  ],
  io: [
    "resolve",
    // git, mutate, edit, fs, journal
    "journal_write",
    "commit_failed",
    "git_timeout",
    "git_missing",
    "git_spawn",
    "git_config_read",
    "git_remotes_read",
    // structured, documents, code, search, images, walk, text, surfaces
    "parser_stopped",
    "doc_reader_stopped",
    "search_start",
    "ripgrep_missing",
    "regex_check",
  ],
  read_only: [
    // git, mutate, edit, fs, journal
    "git_writes",
  ],
  no_roots: [
    // git, mutate, edit, fs, journal
    "client_gave_none",
    "client_cannot_give",
    // structured, documents, code, search, images, walk, text, surfaces
    "project_unset",
  ],
  journal_full: [
    // git, mutate, edit, fs, journal
    "min_age",
  ],
  not_utf8: [
    // structured, documents, code, search, images, walk, text, surfaces
    "encoding_needed",
    "encoding_guessed",
    "looks_binary",
    "encoding_unguessed",
    "invalid_bytes",
  ],
} as const satisfies Partial<Record<ErrorKind, readonly string[]>>;

type Reasons = typeof ERROR_REASONS;
/** The cases of kind `K` (`never` for a kind with its plain case only). */
export type ReasonOf<K extends ErrorKind> = K extends keyof Reasons ? Reasons[K][number] : never;
export type ErrorReason = ReasonOf<ErrorKind>;

/** A path that is not there, worded as a system ENOENT on it is (`toClientMessage`). */
export function noSuchPathError(requested: string): ToolError {
  return new ToolError("not_found", { path: requested });
}

/**
 * Several per-item errors reported as one (e.g. every file of an all-or-nothing edit that failed). Keeps
 * the items so a caller can re-render each (say, a conflict with a diff) under the same wording.
 */
export class ToolErrorGroup extends ToolError {
  constructor(
    readonly errors: readonly ToolError[],
    readonly compose: (messages: readonly string[]) => string,
    kind: ErrorKind = "invalid",
  ) {
    super(compose(errors.map((e) => e.message)), kind);
    this.name = "ToolErrorGroup";
  }
}

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

/** The kind of a system error, by its code: what a surface words it as (`kindOf`). */
const SYSTEM_KINDS: Readonly<Record<string, ErrorKind>> = {
  ENOENT: "not_found",
  EEXIST: "exists",
  ENOTEMPTY: "exists",
  EISDIR: "not_file",
  ENOTDIR: "not_directory",
  EACCES: "os_denied",
  EPERM: "os_denied",
  EINVAL: "invalid",
  EROFS: "read_only",
  ABORT_ERR: "cancelled",
};

/**
 * The kind of an error that is an answer about the request (see `isServerFault`): a ToolError's own, a
 * system error's by its code (`io` when it has no better one); `undefined` for a server fault.
 */
export function kindOf(err: unknown): ErrorKind | undefined {
  if (err instanceof ToolError) return err.kind;
  if (isServerFault(err)) return undefined;
  const e = err as NodeJS.ErrnoException;
  if (e?.name === "AbortError") return "cancelled";
  const code = e?.code;
  return (
    (typeof code === "string" && Object.hasOwn(SYSTEM_KINDS, code) ? SYSTEM_KINDS[code] : undefined) ?? "io"
  );
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
