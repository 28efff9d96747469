import { describe, expect, it } from "vitest";
import {
  type ErrorKind,
  isServerFault,
  noSuchPathError,
  type ReasonOf,
  ToolError,
  toClientMessage,
} from "../core/errors.js";
import { filesystemPolicy } from "./filesystem/policy.js";
import type { SurfacePolicy } from "./policy.js";
import { clientMessage } from "./wording.js";
import { workspacePolicy } from "./workspace/policy.js";

const notUtf8 = new ToolError("Not a UTF-8 text file: a\\x07.bin", "not_utf8", { path: "a\u0007.bin" });

const sys = (code: string) => Object.assign(new Error(`${code}: /abs/secret`), { code });

/**
 * Every kind of error and each of its cases, written out here: the type makes this list exactly the core's
 * (a kind or a case added to src/core/errors.ts fails the typecheck of this file until it is listed, and so
 * walked below through both surfaces' words).
 */
const CASES: { readonly [K in ErrorKind]: { readonly [R in ReasonOf<K> | "plain"]: true } } = {
  invalid: {
    plain: true,
    edit_empty: true,
    path_type: true,
    path_empty: true,
    path_nul: true,
    path_url: true,
    path_too_long: true,
    name_too_long: true,
    trailing_dot_space: true,
    symlink_loop: true,
    ambiguous_component: true,
    twice_in_change: true,
    copy_into_itself: true,
    below_minimum: true,
    out_of_range: true,
    expected_hash: true,
    hash_not_file: true,
    move_root: true,
    move_into_itself: true,
    no_files: true,
    patch_parse: true,
    patch_empty: true,
    patch_binary: true,
    patch_no_path: true,
    journal_off: true,
    git_command: true,
    git_flag: true,
    git_flag_value: true,
    git_no_dashes: true,
    git_double_dash: true,
    git_pathspec_twice: true,
    git_format_gpg: true,
    git_arg_nul: true,
    git_arg_outside: true,
    git_refspec: true,
    git_remote: true,
    git_prune_tags: true,
    git_fetch_all: true,
    git_branch_read: true,
    git_show_current: true,
    git_check_ignore: true,
    git_search: true,
    git_not_repo: true,
    git_failed: true,
    no_grammar: true,
    symbol_ambiguous: true,
    symbol_shared: true,
    symbol_name_empty: true,
    syntax_errors: true,
    parser_missing: true,
    parse_failed: true,
    doc_type: true,
    doc_encrypted: true,
    doc_unreadable: true,
    doc_csv_not_utf8: true,
    doc_spec: true,
    doc_past_end: true,
    doc_no_sheet: true,
    doc_corrupt: true,
    image_header: true,
    image_corrupt: true,
    image_codec_missing: true,
    image_reencode: true,
    glob_too_long: true,
    too_many_globs: true,
    glob_invalid: true,
    glob_negated_extglob: true,
    regex_invalid: true,
    pattern_too_long: true,
    pattern_too_complex: true,
    max_results: true,
    not_structured: true,
    json_invalid: true,
    json_empty: true,
    toml_invalid: true,
    yaml_invalid: true,
    yaml_alias_unanchored: true,
    yaml_alias_recursive: true,
    yaml_alias_expansion: true,
    yaml_duplicate_key: true,
    yaml_alias_path: true,
    yaml_single_value: true,
    yaml_merge_key: true,
    not_in_place: true,
    path_through_scalar: true,
    key_path_syntax: true,
    set_past_end: true,
    merge_needs_objects: true,
    path_below_document: true,
    value_needed: true,
    line_range_outside: true,
    line_ranges_overlap: true,
    notebook_not_json: true,
    notebook_no_cells: true,
    notebook_insert_at: true,
    result_not_json: true,
    result_not_notebook: true,
    unknown_encoding: true,
    encoding_roundtrip: true,
    unencodable_char: true,
    line_count: true,
    head_and_tail: true,
    range_with_head_tail: true,
    line_number: true,
    range_reversed: true,
    path_needed: true,
    files_empty: true,
    max_lines_negative: true,
    file_path_type: true,
    dir_path_type: true,
    content_type: true,
    content_surrogates: true,
    path_param_empty: true,
    edit_shapes_both: true,
    edit_shape_missing: true,
    git_unknown_command: true,
    line_range_pair: true,
    line_range_integers: true,
    line_range_min: true,
    glob_or_pattern: true,
    not_image: true,
  },
  outside_roots: { plain: true, parent_segment: true },
  denied: {
    plain: true,
    windows_path: true,
    unc_path: true,
    stream_syntax: true,
    stream_name: true,
    device_path: true,
    reserved_name: true,
    alias: true,
    git_dir_write: true,
    changed_while_opening: true,
    moved_link_outside: true,
    moved_link_read_only: true,
    copied_link_outside: true,
    move_too_many: true,
    changed_while_deleting: true,
    delete_root: true,
    journal_hash: true,
    journal_record: true,
    change_root_gone: true,
    git_outside: true,
    git_config_first_wins: true,
    git_config_unsayable: true,
    git_config_too_many: true,
    git_config_include: true,
    git_option: true,
    git_remote_outside: true,
    patch_absolute: true,
    delete_project_root: true,
    move_root: true,
  },
  os_denied: { plain: true },
  ignored: {
    plain: true,
    holds_hidden: true,
    deny_rule: true,
    git_deny_follow: true,
    git_deny_show: true,
    git_deny_ls_tree: true,
    list_git_dir: true,
    list_ignored_dir: true,
  },
  read_only: { plain: true, git_writes: true },
  not_found: {
    plain: true,
    edit_not_found: true,
    file: true,
    parent: true,
    directory: true,
    change: true,
    patch_file: true,
    symbol: true,
    key_path: true,
    delete_missing: true,
    no_container: true,
    cell: true,
    cell_id: true,
    reference_project: true,
    reference_url_only: true,
  },
  exists: {
    plain: true,
    destination: true,
    destination_dir: true,
    destination_not_dir: true,
    destination_not_file: true,
    destination_merge: true,
    destination_replace: true,
    not_dir: true,
    patch_creates: true,
  },
  not_file: { plain: true, not_regular: true, not_regular_or_dir: true, copy_special: true },
  not_directory: { plain: true, parent_is_file: true, is_file: true },
  not_empty: { plain: true },
  too_large: {
    plain: true,
    change_whole: true,
    resource_blob: true,
    code_size: true,
    media: true,
    copy_entries: true,
    document: true,
    doc_inflated: true,
    doc_timeout: true,
    doc_memory: true,
    image_pixels: true,
    image_fit: true,
    image_timeout: true,
    image_memory: true,
    read_wide: true,
  },
  not_utf8: {
    plain: true,
    encoding_needed: true,
    encoding_guessed: true,
    looks_binary: true,
    encoding_unguessed: true,
    invalid_bytes: true,
  },
  conflict: {
    plain: true,
    edit_ambiguous: true,
    edit_overlap: true,
    changed_while_reading: true,
    created_meanwhile: true,
    appeared_meanwhile: true,
    not_undoable: true,
    already_undone: true,
    undo_changed: true,
    patch_delete_content: true,
    patch_hunk: true,
  },
  no_roots: { plain: true, client_gave_none: true, client_cannot_give: true, project_unset: true },
  journal_full: { plain: true, min_age: true },
  cancelled: { plain: true },
  io: {
    plain: true,
    resolve: true,
    journal_write: true,
    commit_failed: true,
    git_timeout: true,
    git_missing: true,
    git_spawn: true,
    git_config_read: true,
    git_remotes_read: true,
    parser_stopped: true,
    doc_reader_stopped: true,
    search_start: true,
    ripgrep_missing: true,
    regex_check: true,
  },
};

/** Every case as `[kind, reason]` (`plain`: the kind's case without a reason). */
const ALL_CASES = Object.entries(CASES).flatMap(([kind, reasons]) =>
  Object.keys(reasons).map((reason) => [kind as ErrorKind, reason] as const),
);

/**
 * Cases whose words name no path on purpose: there is none (no string given, no root configured), or the
 * official server's edit errors (kept byte for byte; the call names one file).
 */
const PATHLESS = new Set([
  "invalid/path_type",
  "invalid/path_empty",
  "no_roots/plain",
  "invalid/edit_empty",
  "not_found/edit_not_found",
  "conflict/edit_ambiguous",
  "conflict/edit_overlap",
  // git, mutate, edit, fs, journal: about the call's arguments, a change of the journal or the server.
  "invalid/below_minimum",
  "invalid/out_of_range",
  "invalid/no_files",
  "invalid/patch_parse",
  "invalid/patch_empty",
  "invalid/patch_no_path",
  "invalid/journal_off",
  "invalid/git_command",
  "invalid/git_flag",
  "invalid/git_flag_value",
  "invalid/git_no_dashes",
  "invalid/git_double_dash",
  "invalid/git_pathspec_twice",
  "invalid/git_format_gpg",
  "invalid/git_arg_nul",
  "invalid/git_arg_outside",
  "invalid/git_refspec",
  "invalid/git_remote",
  "invalid/git_prune_tags",
  "invalid/git_fetch_all",
  "invalid/git_branch_read",
  "invalid/git_show_current",
  "invalid/git_check_ignore",
  "invalid/git_search",
  "invalid/git_failed",
  "denied/journal_hash",
  "denied/journal_record",
  "denied/change_root_gone",
  "denied/git_option",
  "ignored/git_deny_follow",
  "ignored/git_deny_show",
  "ignored/git_deny_ls_tree",
  "not_found/change",
  "conflict/not_undoable",
  "conflict/already_undone",
  "conflict/undo_changed",
  "no_roots/client_gave_none",
  "no_roots/client_cannot_give",
  "journal_full/min_age",
  "io/journal_write",
  "io/git_timeout",
  "io/git_missing",
  "io/git_spawn",
  "io/git_config_read",
  // structured, documents, code, search, images, walk, text, surfaces: a parameter's value at fault (a
  // pattern, a range, a key path), or what the named file holds; the call names the one file.
  "invalid/glob_too_long",
  "invalid/too_many_globs",
  "invalid/glob_invalid",
  "invalid/glob_negated_extglob",
  "invalid/regex_invalid",
  "invalid/pattern_too_long",
  "invalid/pattern_too_complex",
  "invalid/max_results",
  "invalid/json_invalid",
  "invalid/json_empty",
  "invalid/toml_invalid",
  "invalid/yaml_invalid",
  "invalid/yaml_alias_unanchored",
  "invalid/yaml_alias_recursive",
  "invalid/yaml_alias_expansion",
  "invalid/yaml_duplicate_key",
  "invalid/yaml_alias_path",
  "invalid/yaml_single_value",
  "invalid/yaml_merge_key",
  "invalid/not_in_place",
  "invalid/path_through_scalar",
  "invalid/key_path_syntax",
  "invalid/set_past_end",
  "invalid/merge_needs_objects",
  "invalid/path_below_document",
  "invalid/value_needed",
  "invalid/line_range_outside",
  "invalid/line_ranges_overlap",
  "invalid/notebook_not_json",
  "invalid/notebook_no_cells",
  "invalid/notebook_insert_at",
  "invalid/result_not_json",
  "invalid/result_not_notebook",
  "invalid/head_and_tail",
  "invalid/range_with_head_tail",
  "invalid/range_reversed",
  "invalid/path_needed",
  "invalid/files_empty",
  "invalid/max_lines_negative",
  "invalid/file_path_type",
  "invalid/dir_path_type",
  "invalid/content_type",
  "invalid/content_surrogates",
  "invalid/path_param_empty",
  "invalid/edit_shapes_both",
  "invalid/edit_shape_missing",
  "invalid/git_unknown_command",
  "invalid/line_range_pair",
  "invalid/line_range_integers",
  "invalid/line_range_min",
  "invalid/glob_or_pattern",
  "denied/patch_absolute",
  "denied/delete_project_root",
  "not_found/key_path",
  "not_found/delete_missing",
  "not_found/no_container",
  "not_found/cell",
  "not_found/cell_id",
  "not_found/reference_project",
  "not_found/reference_url_only",
  "io/search_start",
  "io/ripgrep_missing",
  "io/regex_check",
  "no_roots/project_unset",
]);

/** Where a surface's own words leave the path out on purpose (mcp-workspace's move_file answers). */
const WITHOUT_PATH: Partial<Record<ErrorKind, readonly string[]>> = {
  outside_roots: ["move_file"],
  denied: ["move_file"],
  os_denied: ["move_file"],
  read_only: ["move_file"],
  not_found: ["move_file"],
  exists: ["move_file"],
  io: ["move_file"],
  invalid: ["move_file"],
};

/** The other values a case's words may use (git, mutate, edit, fs, journal). */
const MORE = {
  command: "log",
  parameter: "max_lines",
  change: "c-1",
  undoneBy: "c-2",
  cause: "why",
  expected: "exp",
  name: "nm",
  items: ["one", "two"],
  entry: "sub/l\u0007",
  destination: "d/x",
  steps: [{ path: "p\u0007", action: "restore", changed: "x" }],
  hunk: { index: 1, oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: 2, near: 0, fileLines: 3 },
};
/** Where a case reads a value as a number (a duration in ms). */
const NUMBERS: Record<string, object> = {
  "journal_full/min_age": { actual: 5_000, limit: 60_000 },
  "not_found/cell": { actual: 3 },
  "too_large/image_pixels": { actual: 900_000_000, limit: 50_000_000 },
};
/** The edit engine's detail of an edit that cannot be made (edit_* cases). */
const EDIT = {
  index: 1,
  total: 2,
  oldText: "x",
  oldName: "oldText",
  replaceAllName: "replaceAll",
  lines: [3],
};

/** A data error of `kind`'s case `reason` about a path with a control character in it. */
const caseError = (kind: ErrorKind, reason: string) =>
  new ToolError(kind, {
    path: "dir/a\u0007.txt",
    ...(reason === "plain" ? {} : { reason }),
    actual: "seg",
    limit: 9,
    edit: EDIT,
    ...MORE,
    ...NUMBERS[`${kind}/${reason}`],
  } as never);

describe("errors as data: every case of every kind worded once per surface", () => {
  it("the official words name the requested path (printable), never more, from the data alone", () => {
    for (const [kind, reason] of ALL_CASES) {
      const text = clientMessage(caseError(kind, reason));
      expect(text, `${kind}/${reason}`).not.toMatch(/undefined|\[object|NaN/);
      // A name from the client or a repository is shown escaped, never raw.
      expect(text, `${kind}/${reason}`).not.toMatch(/\u0007/);
      if (!PATHLESS.has(`${kind}/${reason}`)) expect(text, `${kind}/${reason}`).toContain("dir/a\\x07.txt");
    }
  });

  const policies: [string, SurfacePolicy][] = [
    ["filesystem", filesystemPolicy],
    ["workspace", workspacePolicy],
  ];
  it.each(policies)(
    "the %s surface words every case in every tool, naming the requested path",
    (_n, policy) => {
      const tools = [
        "read_file",
        "read_text_file",
        "move_file",
        "delete_directory",
        "delete_this_file",
        "grep",
      ];
      for (const [kind, reason] of ALL_CASES)
        for (const tool of tools) {
          const err = caseError(kind, reason);
          const worded = policy.errorText(tool, err, clientMessage(err));
          const what = `${kind}/${reason} in ${tool}`;
          expect(worded, what).not.toMatch(/undefined|\[object|: $/);
          if (!PATHLESS.has(`${kind}/${reason}`) && !WITHOUT_PATH[kind]?.includes(tool))
            expect(worded, what).toContain("dir/a\\x07.txt");
        }
    },
  );

  it("a data error's message is a diagnostic for the log, never a reply's text", () => {
    const e = new ToolError("outside_roots", { path: "../x" });
    expect(e.message).toBe("outside_roots: ../x");
    expect(filesystemPolicy.errorText("read_text_file", e, clientMessage(e))).toBe(
      "Access denied - path outside allowed directories: ../x",
    );
    expect(workspacePolicy.errorText("read_file", e, clientMessage(e))).toBe(
      "Error executing tool read_file: Security error: Path '../x' contains '..' traversal.",
    );
  });
});

describe("typed errors, worded once per surface", () => {
  it("the filesystem surface answers with the default message", () => {
    expect(filesystemPolicy.errorText("edit_file", notUtf8, notUtf8.message)).toBe(notUtf8.message);
  });

  it("the workspace surface words a kind from its parameters (the path made printable)", () => {
    expect(workspacePolicy.errorText("edit_file", notUtf8, notUtf8.message)).toBe(
      "Error executing tool edit_file: File 'a\\x07.bin' contains invalid characters. Not a UTF-8 text file: a\\x07.bin",
    );
  });

  it("decides by kind, never by the message's text", () => {
    const lookalike = new ToolError("Not a UTF-8 text file: x", "invalid");
    // Worded by its kind (`invalid`), so the text stays the core's.
    expect(workspacePolicy.errorText("read_file", lookalike, lookalike.message)).toBe(
      "Error executing tool read_file: Not a UTF-8 text file: x",
    );
  });

  it("a missing path is a ToolError worded as a system ENOENT is", () => {
    const e = noSuchPathError("dir/missing.txt");
    expect(e.kind).toBe("not_found");
    expect(clientMessage(e)).toBe(
      toClientMessage(Object.assign(new Error("ENOENT: /abs"), { code: "ENOENT" }), "dir/missing.txt"),
    );
    expect(clientMessage(e)).toBe("No such file or directory: dir/missing.txt");
  });

  it("system errors keep their wording", () => {
    expect(toClientMessage(sys("EACCES"), "p")).toBe("Permission denied: p");
    expect(toClientMessage(sys("EXDEV"), "p")).toBe("Operation failed: p (EXDEV)");
    expect(toClientMessage(sys("EBADF"))).toBe("Operation failed (EBADF)");
    expect(toClientMessage(Object.assign(new Error("x"), { name: "AbortError" }), "p")).toBe("Cancelled: p");
  });

  it("a server fault says so, and never reads like a problem with the path", () => {
    const fault =
      "Internal error in mcpfs while running grep (a server bug, not a problem with src); details are in the server log.";
    const faults = [
      // The bundle lacking a package (what an installed server met on every .gitignore).
      Object.assign(new Error("Cannot find module 'ignore'"), { code: "MODULE_NOT_FOUND" }),
      Object.assign(new TypeError("The argument must be of type string"), { code: "ERR_INVALID_ARG_TYPE" }),
      new Error("assertion failed"),
      new TypeError("x is undefined"),
      // A code name that is not an errno one (nor looked up through the prototype).
      sys("constructor"),
    ];
    for (const err of faults) {
      expect(isServerFault(err)).toBe(true);
      expect(toClientMessage(err, "src", "grep")).toBe(fault);
    }
    expect(toClientMessage(new Error("boom"))).toBe(
      "Internal error in mcpfs (a server bug); details are in the server log.",
    );
    for (const answer of [
      sys("ENOENT"),
      sys("EXDEV"),
      new ToolError("No"),
      Object.assign(new Error("x"), { name: "AbortError" }),
    ])
      expect(isServerFault(answer)).toBe(false);
  });
});
