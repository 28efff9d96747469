import { describe, expect, it } from "vitest";
import {
  ERROR_KINDS,
  ERROR_REASONS,
  type ErrorKind,
  isServerFault,
  noSuchPathError,
  ToolError,
  toClientMessage,
} from "../../src/core/errors.js";
import { filesystemPolicy, filesystemWording } from "../../src/surfaces/filesystem/policy.js";
import type { ErrorWording } from "../../src/surfaces/policy.js";
import { clientMessage, OFFICIAL_WORDS } from "../../src/surfaces/wording.js";
import { workspacePolicy, workspaceWording } from "../../src/surfaces/workspace/policy.js";

const notUtf8 = new ToolError("Not a UTF-8 text file: a\\x07.bin", "not_utf8", { path: "a\u0007.bin" });

const sys = (code: string) => Object.assign(new Error(`${code}: /abs/secret`), { code });

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

describe("every kind of error, worded once per surface", () => {
  const tables: [string, ErrorWording][] = [
    ["filesystem", filesystemWording],
    ["workspace", workspaceWording],
  ];
  it.each(tables)("the %s table words every kind, naming the requested path", (_name, table) => {
    expect(Object.keys(table).sort()).toEqual([...ERROR_KINDS].sort());
    const tools = [
      "read_file",
      "read_text_file",
      "move_file",
      "delete_directory",
      "delete_this_file",
      "grep",
    ];
    for (const kind of ERROR_KINDS)
      for (const tool of tools) {
        const worded = table[kind]({ text: `Core text: dir/x.txt`, path: "dir/x.txt", tool, detail: {} });
        expect(worded, `${kind} in ${tool}`).not.toBe("");
        if (!WITHOUT_PATH[kind]?.includes(tool)) expect(worded, `${kind} in ${tool}`).toContain("dir/x.txt");
      }
  });

  it("a kind without wording is caught at run time too (a table built from a loose object)", () => {
    const partial = { ...workspaceWording } as Record<string, unknown>;
    delete partial.not_empty;
    expect(ERROR_KINDS.filter((k) => typeof partial[k] !== "function")).toEqual(["not_empty"]);
  });
});

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
/** The edit engine's detail of an edit that cannot be made (edit_* cases). */
const EDIT = {
  index: 1,
  total: 2,
  oldText: "x",
  oldName: "oldText",
  replaceAllName: "replaceAll",
  lines: [3],
};

describe("errors as data: every case of every kind worded once, in the official table", () => {
  it("has words for each kind's plain case and each of its cases, and nothing else", () => {
    expect(Object.keys(OFFICIAL_WORDS).sort()).toEqual([...ERROR_KINDS].sort());
    for (const kind of ERROR_KINDS) {
      const cases = (ERROR_REASONS as Partial<Record<ErrorKind, readonly string[]>>)[kind] ?? [];
      expect(Object.keys(OFFICIAL_WORDS[kind]).sort(), kind).toEqual(["plain", ...cases].sort());
    }
  });

  it("each case names the requested path (printable), never more, from the data alone", () => {
    for (const kind of ERROR_KINDS)
      for (const reason of Object.keys(OFFICIAL_WORDS[kind])) {
        const detail = {
          path: "dir/a\u0007.txt",
          ...(reason === "plain" ? {} : { reason }),
          actual: "seg",
          limit: 9,
          edit: EDIT,
          expected: "exp",
          parameter: "param",
          name: "nm",
          cause: "why",
          items: ["one", "two"],
        };
        const text = clientMessage(new ToolError(kind, detail as never));
        expect(text, `${kind}/${reason}`).not.toMatch(/undefined|\[object/);
        if (!PATHLESS.has(`${kind}/${reason}`)) expect(text, `${kind}/${reason}`).toContain("dir/a\\x07.txt");
      }
  });

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
