import {
  type ErrorDetail,
  type ErrorKind,
  type ReasonOf,
  ToolError,
  ToolErrorGroup,
  toClientMessage,
  type UndoStepDetail,
} from "../core/errors.js";
import { escapeName, printable } from "../core/paths.js";
import { lfPieces } from "../core/text/lines.js";
import { NAMED, type UnknownArgument } from "./arguments-taken.js";

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

// git, mutate, edit, fs, journal
/** An entry inside the requested directory, or the requested path itself. */
const entryIn = (e: CaseInput) => (e.detail.entry ? `${shown(e.detail.entry)} in ${e.path}` : e.path);

/** A git argument's name as its refusal says it. */
const gitWord = (e: CaseInput) => (e.detail.parameter === "pathspec" ? "Path" : "Argument");

/** "git was not run in <repository>: " (the repository as the tool names it, never a real path). */
const notRunIn = (e: CaseInput) => `git was not run in ${e.path}: `;

/** What of a repository lies outside the allowed directories (`repository-gate.ts`). */
const GIT_PARTS: Readonly<Record<string, string>> = {
  git_dir: "its git directory (a .git file points there)",
  common_dir: "its common git directory (commondir points there)",
  work_tree: "its work tree (core.worktree points there)",
  refs: "its refs",
  objects: "its object store",
  alternates_chain: "a chain of alternates",
  alternate: "an object store that objects/info/alternates names",
};

/** A non-file where an expected hash was given. */
const KIND_WORDS: Readonly<Record<string, string>> = { dir: "a directory", symlink: "a symbolic link" };

/** A duration (ms) for people: 45s, 12m, 1h30m. */
function span(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m}m`;
  return `${Math.floor(m / 60)}h${m % 60 ? `${m % 60}m` : ""}`;
}

/** One step of an undo (its reply and its refusal): the path, what is done there, what changed since. */
export function undoStepLine(s: UndoStepDetail): string {
  const changed = s.changed ? `\n  changed since: ${lfPieces(s.changed).join("\n  ")}` : "";
  return `- ${escapeName(s.path)}: ${s.action}${changed}`;
}

/** Where a patch's hunk was looked for and the file's closest region. */
function hunkMiss(e: CaseInput): string {
  const h = e.detail.hunk;
  if (h === undefined) return `${e.path}: a hunk of the patch does not apply`;
  let msg = `${e.path} hunk #${h.index} (@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@): `;
  msg += `its ${h.lines} context/removed line(s) were not found (looked near line ${h.near + 1}`;
  msg += h.fileLines === 0 ? "; the file is empty)" : `; the file has ${h.fileLines} lines)`;
  const c = h.closest;
  if (c) {
    msg += `. Closest: line ${c.at + 1} matches ${c.equal} of ${h.lines}`;
    if (c.differs)
      msg += `; at line ${c.differs.line + 1} the patch expects ${JSON.stringify(c.differs.expected)} but the file has ${JSON.stringify(c.differs.found)}`;
  }
  return msg;
}
// structured, documents, code, search, images, walk, text, surfaces
/** "<before><path><after>" when the error names a path, else "". */
const opt = (e: CaseInput, before: string, after = "") => (e.path ? `${before}${e.path}${after}` : "");

/** A glob as the search errors quote it: JSON, cut at 60 characters. */
const glob = (v: string | undefined) => {
  const g = v ?? "";
  return JSON.stringify(g.length > 60 ? `${g.slice(0, 60)}…` : g);
};

/** Pixels as megapixels, one decimal. */
const MP = (px: number | string | undefined) => `${Math.round(Number(px) / 1e5) / 10} MP`;

/** What a document is not, by the format the reader expected (`doc_unreadable`). */
const FORMATS: Readonly<Record<string, string>> = {
  pdf: "a readable PDF (corrupt or truncated)",
  docx: "a readable Word (.docx) document",
  xlsx: "an Excel (.xlsx) workbook",
  ods: "an OpenDocument spreadsheet (.ods)",
  pptx: "a PowerPoint (.pptx) file",
  zip: "a valid zip container (corrupt or not an Office file)",
};

/** What a document's page, line or cell range should look like (`doc_spec`). */
const SPECS: Readonly<Record<string, string>> = {
  cells: "a cell range like A1:F40",
  lines: "a line range like 120-240 (a .docx)",
  pages: "a page or range like 3-5",
  range: "a range",
};

/** A document the reader refused: what is wrong, then the next step. */
const docRead = (e: CaseInput, what: string, next = "") => `Cannot read ${e.path}: ${what}${next}.`;
const FEWER = "; ask for fewer pages or a smaller range";
/** An image that cannot be scaled down: what is wrong, then how to get its own bytes. */
const scale = (e: CaseInput, what: string, next = "Pass") =>
  `Cannot scale down ${e.path}: ${what}. ${next} original: true for the file's own bytes.`;

/** How to read or edit a file that is not UTF-8 (every not_utf8 case ends with it). */
const HOW =
  ' Pass `encoding` (e.g. "windows-1252", "shift_jis", "gbk") to read or edit it in that encoding, or start the server with --default-encoding NAME.';

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
    // git, mutate, edit, fs, journal
    below_minimum: (e) => `${e.detail.parameter} must be >= ${e.detail.limit}`,
    out_of_range: (e) =>
      `${e.detail.parameter} must be a whole number from 0 to ${e.detail.limit} (got ${shown(e.detail.actual)})`,
    expected_hash: (e) =>
      `Invalid expected hash for ${e.path}: give the sha256 (64 hex digits, or at least the first ${e.detail.limit}) that a read of the file returned`,
    hash_not_file: (e) =>
      `An expected hash applies to regular files only; ${e.path} is ${KIND_WORDS[String(e.detail.actual)] ?? "a special file"}`,
    move_root: (e) => `Cannot move a root directory: ${e.path}`,
    move_into_itself: (e) =>
      `Cannot move a directory into itself: ${e.path} -> ${shown(e.detail.destination)}`,
    no_files: () => "No files to edit",
    patch_parse: (e) => `Not a valid unified diff: ${e.detail.cause}`,
    patch_empty: () =>
      "The patch has no file changes (expected a unified diff with ---/+++ headers and @@ hunks)",
    patch_binary: (e) => `${e.path}: binary patches are not supported`,
    patch_no_path: () => "A file in the patch names no path",
    journal_off: () =>
      "The change journal is off (mcpfs was started with --no-journal, or no state directory is known): changes are not recorded and cannot be undone",
    git_command: (e) => `Unknown git command: '${shown(e.detail.actual)}'`,
    git_flag: (e) =>
      `Flag '${shown(e.detail.actual)}' is not in the security allowlist for git_${shown(e.detail.command)}.`,
    git_flag_value: (e) => `Flag '${shown(e.detail.actual)}' needs a value`,
    git_no_dashes: (e) => `git ${shown(e.detail.command)} does not accept '--'`,
    git_double_dash: () => "Multiple '--' tokens in args are not allowed.",
    git_pathspec_twice: () => "Specify paths via either '--' in args or the 'pathspec' parameter, not both.",
    git_format_gpg: (e) =>
      `Format '${shown(e.detail.actual)}' is refused: %G placeholders verify signatures by running gpg, which this server does not run`,
    git_arg_nul: (e) => `${gitWord(e)} contains a NUL byte`,
    git_arg_outside: (e) =>
      `${gitWord(e)} '${shown(e.detail.actual)}' is not allowed for git ${shown(e.detail.command)}: paths outside the repository are refused`,
    git_refspec: (e) =>
      `Refspec '${shown(e.detail.actual)}' is not allowed: git fetch here only updates remote-tracking refs, so a refspec may name a source branch but not a destination ('<src>:<dst>'), force ('+') or pattern`,
    git_remote: (e) =>
      `'${shown(e.detail.actual)}' is not a configured remote; git ${shown(e.detail.command)} only contacts the repository's configured remotes (URLs and paths are refused)`,
    git_prune_tags: () =>
      "git fetch --prune --tags is refused: it deletes local tags that the remote does not have",
    git_fetch_all: () => "git fetch --all takes no remote or refspec",
    git_branch_read: () => "git branch requires a read-only flag (e.g. --list, -a, --show-current)",
    git_show_current: () => "git branch --show-current takes no other arguments",
    git_check_ignore: () => "git check_ignore requires at least one path in 'pathspec'",
    git_search: (e) => `Invalid search pattern: ${e.detail.cause}`,
    git_not_repo: (e) => `Directory is not a git repository: ${e.path}`,
    git_failed: (e) => `git ${shown(e.detail.command)} failed: ${e.detail.cause}`,
    // structured, documents, code, search, images, walk, text, surfaces
    no_grammar: (e) =>
      `No code grammar for ${e.path}: outlines cover TypeScript, TSX, JavaScript, Python, Go, ` +
      "Rust, Java, C#, C, C++, Ruby, PHP and Markdown. Read it with a line range instead.",
    symbol_name_empty: (e) =>
      `The symbol name is empty${e.detail.path ? ` (in ${e.path})` : ""}: give a name (parse) or a qualified name (Parser.parse); outline lists a file's symbols.`,
    symbol_ambiguous: (e) =>
      `'${shown(e.detail.name)}' names ${e.detail.actual} symbols in ${e.path}: ${(e.detail.items ?? []).join("; ")}. ${/[.:#\\]|->/.test(String(e.detail.name)) ? "Name" : "Give a qualified name (Outer.inner), or name"} one by its first line: '${shown(e.detail.expected)}'.`,
    symbol_shared: (e) =>
      `'${shown(e.detail.name)}' in ${e.path} is declared on line ${e.detail.actual} together with ${(e.detail.items ?? []).join(", ")}: replacing it would replace them too. Nothing was changed; edit that line with edit_file.`,
    syntax_errors: (e) =>
      `Refused: the new text leaves ${e.path} with syntax errors (${e.detail.actual} where it had ${e.detail.expected}). Nothing was changed; check the text's brackets and indentation.`,
    parser_missing: (e) =>
      `The code parser is not installed with this build${opt(e, "; read ", " with a line range instead")}`,
    parse_failed: (e) => `Could not parse${opt(e, " ")}: ${shown(e.detail.cause)}`,
    doc_type: (e) =>
      `Not a document read_document reads: ${e.path}. It reads .pdf, .docx, .xlsx, .ods, .csv and .pptx; read text with a text read.`,
    doc_encrypted: (e) => docRead(e, "it is encrypted (password-protected)", "; decrypt it first"),
    doc_unreadable: (e) =>
      docRead(e, `it is not ${FORMATS[String(e.detail.expected)] ?? "a readable document"}`),
    doc_csv_not_utf8: (e) => docRead(e, "it is not UTF-8 text; convert it to UTF-8 to read it"),
    doc_spec: (e) =>
      docRead(
        e,
        `${e.detail.parameter}: '${shown(e.detail.actual)}' is not ${SPECS[String(e.detail.expected)] ?? "a valid range"}`,
      ),
    doc_past_end: (e) =>
      docRead(e, `pages: '${shown(e.detail.actual)}' is past the last page (${e.detail.limit})`),
    doc_no_sheet: (e) =>
      docRead(
        e,
        `no sheet '${shown(e.detail.name)}'; sheets: ${(e.detail.items ?? []).map(shown).join(", ")}`,
      ),
    doc_corrupt: (e) => docRead(e, "it could not be parsed (corrupt?)"),
    image_header: (e) =>
      `Cannot scale down ${e.path}: its image header is unreadable (corrupt?); it is ${e.detail.actual} bytes, over the limit of ${e.detail.limit}.`,
    image_corrupt: (e) => scale(e, "it could not be decoded (corrupt or unsupported image?)"),
    image_codec_missing: (e) => scale(e, `the ${e.detail.name} codec is not installed`),
    image_reencode: (e) => scale(e, "it could not be re-encoded"),
    glob_too_long: (e) =>
      `Glob pattern too long (${e.detail.actual} characters; the limit is ${e.detail.limit}): ${glob(e.detail.name)}. Use a shorter pattern.`,
    too_many_globs: (e) =>
      `Too many ${e.detail.parameter === "exclude" ? "exclude patterns" : "globs"} (${e.detail.actual}; the limit is ${e.detail.limit}). Combine them with {a,b} alternatives.`,
    glob_invalid: (e) => `Invalid glob pattern ${glob(e.detail.name)}: ${e.detail.cause}`,
    glob_negated_extglob: (e) =>
      `Unsupported glob pattern ${glob(e.detail.name)}: a negated extglob "!(…)" cannot be matched in linear time. ` +
      'Use a leading "!" on the whole pattern, or excludePatterns, instead.',
    regex_invalid: (e) => `Invalid regular expression: ${e.detail.cause}`,
    pattern_too_long: (e) =>
      `Search pattern too large: ${e.detail.actual} bytes, over the limit of ${e.detail.limit}. Split it into several shorter searches.`,
    pattern_too_complex: (e) =>
      `Search pattern too large: compiling it took ${e.detail.actual ?? `over ${e.detail.limit}`} ms. Split it into several shorter searches.`,
    max_results: () => "maxResults must be at least 1",
    not_structured: (e) =>
      `Not a structured file: ${e.path}. read_structured and edit_structured take .json, .jsonc, .yaml, .yml and .toml files; use edit_file or edit_lines for others.`,
    json_invalid: (e) => `Not valid JSON: ${e.detail.cause} at offset ${e.detail.actual}.`,
    json_empty: () => "Not valid JSON: the file is empty.",
    toml_invalid: (e) => `Not valid TOML: ${e.detail.cause}`,
    yaml_invalid: (e) => `Not valid YAML: ${e.detail.cause}`,
    yaml_alias_unanchored: (e) =>
      `Not valid YAML for a structured read or edit: the alias *${e.detail.name} has no anchor &${e.detail.name} before it.`,
    yaml_alias_recursive: (e) =>
      `Not valid YAML for a structured read or edit: the alias *${e.detail.name} is inside its own anchor (a recursive value).`,
    yaml_alias_expansion: (e) =>
      `Not valid YAML for a structured read or edit: its aliases expand to more than ${e.detail.limit} values.`,
    yaml_duplicate_key: (e) =>
      `Not valid YAML: Map keys must be unique ('${e.detail.name}' again at line ${e.detail.actual}).`,
    yaml_alias_path: (e) =>
      `The path goes through the alias *${e.detail.name}: edit its anchor, or replace it whole.`,
    yaml_single_value: () =>
      "The document is empty or a single value: give the whole content with write_file.",
    yaml_merge_key: () =>
      "Refused: that key comes from a merge key (<<), not from this map. Nothing was changed; delete it at its anchor, or set it here to override it.",
    not_in_place: () =>
      "Refused: this edit could not be made in place without changing other values. Nothing was changed; edit the text with edit_file.",
    path_through_scalar: () => "The path goes through a value that is not an object or array.",
    key_path_syntax: (e) =>
      `Invalid path '${shown(e.detail.name)}' at character ${e.detail.actual}: use dotted keys and [index], e.g. a.b[2].c or a["x.y"].`,
    set_past_end: (e) =>
      `Cannot set '${shown(e.detail.name)}': the index is past the end, or the key type is wrong.`,
    merge_needs_objects: () => "A merge into the document needs an object on both sides.",
    path_below_document: () => "Give a path below the document (e.g. a.b); to merge at the top, use merge.",
    value_needed: () => "Give value with set and merge.",
    line_range_outside: (e) =>
      `Line range ${e.detail.actual} is outside the file's ${e.detail.limit} lines (endLine = startLine - 1 inserts).`,
    line_ranges_overlap: (e) =>
      `Line ranges ${(e.detail.items ?? []).join(" and ")} overlap: merge them into one edit.`,
    notebook_not_json: () => "Not a Jupyter notebook: the file is not valid JSON.",
    notebook_no_cells: () => "Not a Jupyter notebook: no cells array.",
    notebook_insert_at: (e) =>
      `Cannot insert at ${e.detail.actual}: give 0-${e.detail.limit} (the index the new cell gets).`,
    result_not_json: () => "Refused: the result would not be valid JSON. Nothing was changed.",
    result_not_notebook: (e) =>
      `Refused: the result would not be a valid nbformat 4 notebook (${e.detail.cause ?? "cell ids"}). Nothing was changed.`,
    unknown_encoding: (e) =>
      `Unknown encoding "${shown(e.detail.name)}" for ${e.path}: name one such as latin1, windows-1252, shift_jis, gbk, euc-kr, utf-16le.`,
    encoding_roundtrip: (e) =>
      `Cannot edit ${e.path} as ${e.detail.name}: its bytes do not come back unchanged from that encoding, so an edit would change lines it does not touch.`,
    unencodable_char: (e) =>
      `Cannot write "${e.detail.actual}" (U+${e.detail.expected}) to ${e.path}: its encoding ${e.detail.name} has no such character. Nothing was changed; use characters ${e.detail.name} can hold.`,
    line_count: (e) =>
      `${e.detail.parameter} must be a positive whole number of lines (got ${shown(e.detail.actual)}) for ${e.path}`,
    head_and_tail: () => "Cannot specify both head and tail parameters simultaneously",
    range_with_head_tail: () => "Cannot combine startLine/endLine with head or tail",
    line_number: (e) =>
      `${e.detail.parameter} must be a whole number of 1 or more (got ${shown(e.detail.actual)}) for ${e.path}`,
    range_reversed: (e) =>
      `${e.detail.parameter} (${e.detail.actual}) must be >= ${e.detail.name} (${e.detail.limit})`,
    path_needed: () =>
      "Give path: a file or directory inside an allowed directory (list_allowed_directories).",
    files_empty: () => "files must list at least one file",
    // mcp-workspace's words (only its tools raise these).
    max_lines_negative: (e) => `max_lines must be >= 0, got ${e.detail.actual}`,
    file_path_type: (e) => `File path must be a non-empty string, got ${e.detail.actual}`,
    dir_path_type: (e) => `Directory path must be a non-empty string, got ${e.detail.actual}`,
    content_type: (e) => `Content must be a string, got ${e.detail.actual}`,
    content_surrogates: () =>
      "Content contains characters that cannot be encoded. Please check the encoding.",
    path_param_empty: (e) =>
      `Invalid ${e.detail.parameter === "source_path" ? "source" : "destination"} path`,
    edit_shapes_both: () => "Give either edits or old_string/new_string, not both",
    edit_shape_missing: () => "Give old_string and new_string (or edits: [{old_text, new_text}])",
    git_unknown_command: (e) =>
      `Unknown git command: '${shown(e.detail.name)}'. Pass the flags in args: ${e.detail.expected}`,
    line_range_pair: () => "start_line and end_line must both be provided or both omitted",
    line_range_integers: () => "start_line and end_line must be integers",
    line_range_min: () => "start_line and end_line must be >= 1",
    glob_or_pattern: () => "At least one of 'glob' or 'pattern' must be provided",
    not_image: (e) =>
      `Not an image: ${e.path} (${e.detail.actual}). Read text with read_file, documents with read_document.`,
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
    // git, mutate, edit, fs, journal
    moved_link_outside: (e) =>
      `Refused: the symlink ${entryIn(e)} would point outside the allowed directories once moved; nothing was moved`,
    moved_link_read_only: (e) =>
      `Refused: the symlink ${entryIn(e)} would point into a read-only directory once moved; nothing was moved`,
    copied_link_outside: (e) =>
      `Refused: the symlink ${entryIn(e)} would point outside the allowed directories once copied; nothing was copied`,
    move_too_many: (e) =>
      `Refused: ${e.path} holds more than ${e.detail.limit} entries, too many to check the links it would carry; move its parts instead. Nothing was moved`,
    changed_while_deleting: (e) =>
      `Access denied - a directory changed while it was being deleted${e.path ? `: ${e.path}` : ""}`,
    delete_root: (e) => `Refusing to delete an allowed directory: ${e.path}`,
    journal_hash: (e) =>
      `Refused: the journal record of change ${shown(e.detail.change)} does not match its hash (damaged or edited on disk); nothing was changed`,
    journal_record: (e) =>
      `Refused: change ${shown(e.detail.change)} in the journal does not match what was recorded (damaged or edited on disk); nothing was changed`,
    change_root_gone: (e) =>
      `Change ${shown(e.detail.change)} was made in a directory that is not a writable allowed directory now; nothing was changed`,
    git_outside: (e) =>
      `${notRunIn(e)}${GIT_PARTS[String(e.detail.actual)] ?? "a part of it"} lies outside the allowed directories. Point it inside, or add that repository as its own root.`,
    git_config_first_wins: (e) => {
      const key = shown(e.detail.actual);
      return (
        `${notRunIn(e)}The repository's git configuration sets ${key}, a program git would run; git reads that key first-wins, so it cannot be overruled. ` +
        `This server does not run programs named by repository configuration: remove it (git config --unset-all ${key}) or set it in your global configuration.`
      );
    },
    git_config_unsayable: (e) =>
      `${notRunIn(e)}The repository's git configuration sets '${shown(e.detail.actual)}', which names a program and cannot be overruled on git's command line; remove it to use git here.`,
    git_config_too_many: (e) =>
      `${notRunIn(e)}The repository's git configuration sets ${e.detail.actual} keys that name programs; that is too many to overrule, so git is not run here.`,
    git_config_include: (e) =>
      `${notRunIn(e)}its configuration includes a file outside the allowed directories (include.path or includeIf). Remove that include to use git here.`,
    git_option: (e) => `git option '${shown(e.detail.actual)}' is not run by this server`,
    git_remote_outside: (e) =>
      `git ${shown(e.detail.command)} was not run in ${e.path}: remote '${shown(e.detail.actual)}' is a local repository outside the allowed directories.`,
    // structured, documents, code, search, images, walk, text, surfaces
    patch_absolute: (e) => `Patch paths must be relative: ${shown(e.detail.name)}`,
    delete_project_root: () => "Refusing to delete the project root directory",
    move_root: (e) => `Cannot move an allowed directory itself: ${e.path}`,
  },
  os_denied: { plain: (e) => `Permission denied: ${e.path}` },
  ignored: {
    plain: (e) =>
      `File '${e.path}' is excluded by .gitignore and cannot be accessed. Use list_directory() to see available files.`,
    holds_hidden: (e) =>
      `Refused: '${e.path}' holds entries that cannot be accessed (excluded by .gitignore or the server's rules), so it cannot be moved or deleted whole. Move or delete its other entries one by one.`,
    deny_rule: (e) => `Access denied - the server's --deny rules exclude this path: ${e.path}`,
    // git, mutate, edit, fs, journal
    git_deny_follow: () =>
      "git log --follow is refused while the server's --deny rules are set: it takes one pathspec only, so denied paths could not be excluded.",
    git_deny_show: (e) =>
      `git show '${shown(e.detail.actual)}' was refused: with the server's --deny rules set, show a file as <rev>:<path> (a path the rules allow) and list trees with ls_tree.`,
    git_deny_ls_tree: (e) =>
      `git ls_tree '${shown(e.detail.actual)}' was refused: with the server's --deny rules set, name the tree as <rev>:<path> without '.' or '..' segments.`,
    // structured, documents, code, search, images, walk, text, surfaces
    list_git_dir: (e) =>
      `Directory '${e.path}' is inside .git/, which is never listed: its files are not listed and cannot be read. Use list_directory() to see available files.`,
    list_ignored_dir: (e) =>
      `Directory '${e.path}' is excluded by .gitignore: its files are not listed and cannot be read. Use list_directory() to see available files.`,
  },
  read_only: {
    plain: (e) => `Access denied - read-only location: ${e.path}`,
    // git, mutate, edit, fs, journal
    git_writes: (e) =>
      `git ${shown(e.detail.command)} was not run in ${e.path}: it writes into the repository, and ${e.path} is read-only. Run it in a writable clone.`,
  },
  not_found: {
    plain: (e) => `No such file or directory: ${e.path}`,
    file: (e) => `No such file: ${e.path}`,
    parent: (e) => `Parent directory does not exist: ${e.path}`,
    // git, mutate, edit, fs, journal
    directory: (e) => `No such directory: ${e.path}`,
    change: (e) =>
      `No change ${shown(e.detail.change)} in the journal of the allowed directories (list_changes shows the changes that can be undone)`,
    patch_file: (e) => `${e.path}: no such file to patch`,
    // The official server's words, then which edit and the file's closest region.
    edit_not_found: (e) => {
      const d = e.detail.edit;
      const near = d?.nearest ? `\n\n${d.nearest}` : "";
      return `Could not find exact match for edit:\n${d?.oldText}${editOf(e, "\n(edit ", "; no edit was applied)")}${near}`;
    },
    // structured, documents, code, search, images, walk, text, surfaces
    symbol: (e) => `No symbol '${shown(e.detail.name)}' in ${e.path}. List its symbols with outline.`,
    key_path: (e) => `Nothing at '${shown(e.detail.name)}'.`,
    delete_missing: (e) =>
      e.detail.name === undefined
        ? "Nothing at that path to delete."
        : `Nothing at '${shown(e.detail.name)}' to delete.`,
    no_container: (e) => `No object or array at '${shown(e.detail.name)}'.`,
    cell: (e) => {
      const n = Number(e.detail.actual);
      return `No cell ${shown(e.detail.name)}: the notebook has ${n} cells${n > 0 ? ` (0-${n - 1})` : ""}.`;
    },
    cell_id: (e) => `No cell with id '${shown(e.detail.name)}'. List the cells with notebook_read.`,
    reference_project: (e) => `Reference project '${shown(e.detail.name)}' not found`,
    reference_url_only: (e) =>
      `Reference project '${shown(e.detail.name)}' is a URL-only reference project (${shown(e.detail.actual)}) with no local copy: ` +
      "the reference file tools and git() need a local directory; the GitHub tools accept it as reference_name",
  },
  exists: {
    plain: (e) => `Already exists: ${e.path}`,
    destination: (e) => `Destination already exists: ${e.path}`,
    destination_dir: (e) => `Destination is a directory: ${e.path}`,
    destination_not_dir: (e) => `Destination exists and is not a directory: ${e.path}`,
    destination_not_file: (e) => `Destination exists and is not a file: ${e.path}`,
    // git, mutate, edit, fs, journal
    destination_merge: (e) => `Destination already exists: ${e.path} (pass overwrite: true to copy into it)`,
    destination_replace: (e) => `Destination already exists: ${e.path} (pass overwrite: true to replace it)`,
    not_dir: (e) => `Already exists and is not a directory: ${e.path}`,
    patch_creates: (e) => `${e.path}: the patch creates it, but it already exists`,
  },
  not_file: {
    plain: (e) => `Is a directory, not a file: ${e.path}`,
    not_regular: (e) => `Not a regular file: ${e.path}`,
    not_regular_or_dir: (e) => `Not a regular file or directory: ${e.path}`,
    // git, mutate, edit, fs, journal
    copy_special: (e) =>
      `Refused: ${entryIn(e)} is not a regular file, directory or symlink; nothing was copied`,
  },
  not_directory: {
    plain: (e) => `Not a directory: ${e.path}`,
    parent_is_file: (e) => `Not a directory: a parent of ${e.path} is a file`,
    // structured, documents, code, search, images, walk, text, surfaces
    is_file: (e) => `'${e.path}' is a file, not a directory. Use read_file() instead.`,
  },
  not_empty: { plain: (e) => `Directory not empty: ${e.path}` },
  too_large: {
    plain: (e) =>
      `Too large: ${e.path}${e.detail.limit === undefined ? "" : ` (the limit is ${e.detail.limit} bytes)`}`,
    change_whole: (e) =>
      `File too large to change in one piece (${e.detail.actual} bytes, limit ${e.detail.limit}): ${e.path}`,
    resource_blob: (e) =>
      `File too large to return as a resource (${e.detail.actual} bytes; the limit is ${e.detail.limit} bytes): ${e.path}`,
    // git, mutate, edit, fs, journal
    media: (e) =>
      `File too large to return as media: ${e.path} is ${e.detail.actual} bytes; the limit is ${e.detail.limit} bytes (raise it with --max-output-bytes, or use get_file_info)`,
    copy_entries: (e) => `Too many entries to copy (more than ${e.detail.limit}): ${e.path}`,
    // structured, documents, code, search, images, walk, text, surfaces
    code_size: (e) =>
      `File too large for the code tools (${e.detail.actual} bytes; they parse up to ${e.detail.limit}): ${e.path}. Read it with a line range or grep it instead.`,
    document: (e) =>
      `Document too large: ${e.path} is ${e.detail.actual} bytes; the limit is ${e.detail.limit}`,
    doc_inflated: (e) => docRead(e, `it inflates to more than ${e.detail.limit} bytes (a zip bomb?)`, FEWER),
    doc_timeout: (e) => docRead(e, `parsing it took longer than ${e.detail.limit} s`, FEWER),
    doc_memory: (e) => docRead(e, `parsing it needs more than ${e.detail.limit} MB`, FEWER),
    image_pixels: (e) =>
      `Image too large to scale down: ${e.path} states ${e.detail.name} px (${MP(e.detail.actual)}); ` +
      `mcpfs decodes up to ${MP(e.detail.limit)}. Pass original: true for the file's own bytes.`,
    image_fit: (e) =>
      scale(
        e,
        `it does not fit in ${e.detail.limit} bytes even at ${e.detail.actual} px`,
        "Ask for a larger maxBytes, or pass",
      ),
    image_timeout: (e) => scale(e, `parsing it took longer than ${e.detail.limit} s`),
    image_memory: (e) => scale(e, `parsing it needs more than ${e.detail.limit} MB`),
    read_wide: (e) =>
      `File too large to read as ${e.detail.name} (${e.detail.actual} bytes, limit ${e.detail.limit}): ${e.path}. Convert it to UTF-8 to read it in parts.`,
  },
  not_utf8: {
    plain: (e) => `Not a UTF-8 text file: ${e.path}`,
    // structured, documents, code, search, images, walk, text, surfaces
    encoding_needed: (e) => `Not a UTF-8 text file: ${e.path}.${HOW}`,
    encoding_guessed: (e) =>
      `Not a UTF-8 text file: ${e.path}. Likely encodings (a guess by chardet): ${(e.detail.items ?? []).join(", ")}.${HOW}`,
    looks_binary: (e) => `Not a UTF-8 text file: ${e.path}. It looks binary.${HOW}`,
    encoding_unguessed: (e) => `Not a UTF-8 text file: ${e.path}. Its encoding could not be guessed.${HOW}`,
    invalid_bytes: (e) =>
      `Not valid ${e.detail.name} text: ${e.path} has bytes that encoding lacks. Pass the file's own \`encoding\`.`,
  },
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
    // git, mutate, edit, fs, journal
    created_meanwhile: (e) =>
      `Refused: ${e.path} was created by someone else meanwhile. Nothing was changed.`,
    appeared_meanwhile: (e) => `Refused: ${e.path} appeared meanwhile; nothing was replaced`,
    not_undoable: (e) =>
      `Change ${shown(e.detail.change)} is not undoable: it was larger than the journal's size cap, so its previous versions were not kept`,
    already_undone: (e) =>
      `Change ${shown(e.detail.change)} was already undone by change ${shown(e.detail.undoneBy)} (undo that one to redo it, or pass force to undo again)`,
    undo_changed: (e) =>
      `Refused: ${e.detail.actual} path(s) changed since change ${shown(e.detail.change)}; nothing was undone:\n` +
      `${(e.detail.steps ?? []).map(undoStepLine).join("\n")}\n` +
      "Pass force: true to undo anyway (what is there now is kept in the journal: the undo is a change itself and can be undone).",
    patch_delete_content: (e) =>
      `${e.path}: the patch deletes it, but the file has content the patch does not remove`,
    patch_hunk: hunkMiss,
  },
  no_roots: {
    plain: () => "No allowed directories are configured",
    // git, mutate, edit, fs, journal
    client_gave_none: () =>
      "Server cannot operate: No allowed directories available. Server was started without command-line " +
      "directories and the client either does not support MCP roots or provided no valid root directories. " +
      "Please either: 1) start the server with directory arguments (mcpfs DIR [DIR...]), or 2) use a client " +
      "that supports MCP roots and provides at least one valid root directory.",
    client_cannot_give: () =>
      "Server cannot operate: No allowed directories available. Server was started without command-line " +
      "directories, and on protocol version 2026-07-28 the client cannot provide them through MCP Roots. " +
      "Restart the server with the directories it may access as command-line arguments: mcpfs DIR [DIR...]",
    // structured, documents, code, search, images, walk, text, surfaces
    project_unset: () => "Project directory has not been set",
  },
  journal_full: {
    plain: (e) =>
      `Refused: the undo journal has no room without dropping a recent change; nothing was changed: ${e.path}`,
    // git, mutate, edit, fs, journal
    min_age: (e) => {
      const age = Number(e.detail.actual);
      const min = Number(e.detail.limit);
      return (
        `Refused: the undo journal is full, and making room would drop change ${shown(e.detail.change)} (${shown(e.detail.command)}, ${span(age)} old), ` +
        `younger than --journal-min-age (${span(min)}); nothing was changed. Retry in ${span(min - age)}, ` +
        "or restart mcpfs with a larger --journal-max-bytes or a shorter --journal-min-age."
      );
    },
  },
  // A cancellation may name no path (a tool without one): then no dangling ": ".
  cancelled: { plain: (e) => `Cancelled${opt(e, ": ")}` },
  io: {
    plain: (e) => `Operation failed: ${e.path}`,
    resolve: (e) => `Cannot resolve path: ${e.path}`,
    // git, mutate, edit, fs, journal
    journal_write: (e) =>
      `Nothing was changed: the change journal could not record this change (${e.detail.cause ?? "unexpected error"}). Retry, or start mcpfs with --no-journal.`,
    commit_failed: (e) =>
      `Operation failed${e.path ? `: ${e.path}` : ""} (${e.detail.cause ?? "unexpected error"})`,
    git_timeout: (e) => `git ${shown(e.detail.command)} timed out`,
    git_missing: () => "git is not installed or not on PATH",
    git_spawn: (e) => `Could not run git: ${e.detail.cause}`,
    git_config_read: (e) =>
      `Could not read the repository's git configuration (${e.detail.cause}), so git is not run`,
    git_remotes_read: (e) => `${notRunIn(e)}its remotes could not be read (${e.detail.cause})`,
    // structured, documents, code, search, images, walk, text, surfaces
    parser_stopped: (e) =>
      `The code parser stopped (${e.detail.cause})${opt(e, " while reading ")}; try again.`,
    doc_reader_stopped: (e) =>
      `The document reader stopped (${e.detail.cause})${opt(e, " while reading ")}; try again.`,
    search_start: (e) => `Search failed to start: ${e.detail.cause}`,
    ripgrep_missing: () => "ripgrep is not available on this machine",
    regex_check: (e) => `Cannot check the regular expression: ${e.detail.cause}`,
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

/** Characters of an unknown argument's place shown. */
const UNKNOWN_NAME_CHARS = 80;

/** An argument's place as a refusal shows it: printable, and long names cut. */
const argumentAt = (at: string) =>
  at.length > UNKNOWN_NAME_CHARS ? `${shown(at.slice(0, UNKNOWN_NAME_CHARS - 1))}…` : shown(at);

/** Each argument named where it is, with the one meant when clear; at most `NAMED`. */
function unknownNamed(unknown: readonly UnknownArgument[]): string {
  const named = unknown
    .slice(0, NAMED)
    .map((u) =>
      u.meant === undefined ? argumentAt(u.at) : `${argumentAt(u.at)} (did you mean ${u.meant}?)`,
    );
  if (unknown.length > NAMED) named.push(`and ${unknown.length - NAMED} more`);
  return `${unknown.length > 1 ? "parameters" : "parameter"} ${named.join(", ")}`;
}

/** A reading tool's last block when it ran without arguments it does not take (register-tools.ts). */
export function ignoredArguments(unknown: readonly UnknownArgument[], takes: readonly string[]): string {
  return `[mcpfs: ignored unknown ${unknownNamed(unknown)}. This tool takes: ${takes.join(", ")}.]`;
}

/**
 * A changing tool's refusal of arguments it does not take (register-tools.ts), in the SDK's words for any
 * other invalid argument: each named where it is, with the one meant when clear.
 */
export function unknownArguments(
  tool: string,
  unknown: readonly UnknownArgument[],
  takes: readonly string[],
): string {
  return (
    `Input validation error: Invalid arguments for tool ${tool}: unknown ${unknownNamed(unknown)}; nothing ` +
    `was done. Its parameters: ${takes.join(", ")}.`
  );
}
