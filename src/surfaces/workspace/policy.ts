import { hasParentSegment } from "../../core/paths.js";
import {
  asIs,
  type ErrorWording,
  type SurfacePolicy,
  type Wording,
  type WordingInput,
  wordError,
} from "../policy.js";

/** The tools whose missing or non-file path mcp-workspace words with the path in quotes. */
const FILE_TOOLS: ReadonlySet<string> = new Set(["read_file", "append_file", "delete_this_file"]);

/** mcp-workspace answers move failures with a few plain words an assistant can act on (the seed's). */
const moveOr =
  (words: string, otherwise: Wording = asIs): Wording =>
  (e) =>
    e.tool === "move_file" ? words : otherwise(e);

/** A path that leaves the project (or the reference project the tool reads). */
function outside(e: WordingInput): string {
  // The reference tools (read_reference_file, …), not find_references.
  const where = e.tool.includes("_reference_") ? "reference project" : "project";
  if (hasParentSegment(e.path)) return `Security error: Path '${e.path}' contains '..' traversal.`;
  if (e.path.startsWith("/"))
    return `Security error: Path '${e.path}' is outside the ${where} directory. All file operations must be within the ${where} directory.`;
  return `Security error: Path '${e.path}' resolves to a location outside the ${where} directory. Path traversal is not allowed.`;
}

/** An old text as mcp-workspace's edit_file quotes it: at most 50 characters. */
const quoted = (text: string) => (text.length <= 50 ? text : `${text.slice(0, 47)}...`);

/**
 * mcp-workspace's edit_file words for an edit that cannot be made (the engine's cases, `detail.edit`); any
 * other tool, or any other case, keeps the official words (`otherwise`).
 */
const editOr =
  (otherwise: Wording): Wording =>
  (e) => {
    const d = e.detail.edit;
    if (e.tool !== "edit_file" || d === undefined) return otherwise(e);
    const old = quoted(d.oldText);
    const which = d.total > 1 ? ` (edit ${d.index + 1} of ${d.total}; no edit was applied)` : "";
    switch (e.detail.reason) {
      case "edit_ambiguous":
        return (
          `Multiple matches (${d.lines?.length ?? 0}) found for ${old}. Use replace_all=True to replace all ` +
          "occurrences, or provide more context to create a unique match."
        );
      case "edit_not_found":
        if (d.backslashHint)
          return (
            `Text not found: ${old}\nHint: file may store backslashes as \`\\\\\` (double backslashes) — use ` +
            `double backslashes in both \`${d.oldName}\` and \`${d.oldName.replace("old", "new")}\`.${which}`
          );
        return `Text not found in ${e.path}: ${old}${which}${d.nearest ? `\n\n${d.nearest}` : ""}`;
      case "edit_empty":
        return `old_text must not be empty${which}`;
      default:
        return otherwise(e);
    }
  };

/** mcp-workspace's words for every kind of error (each then framed by FastMCP's prefix, `errorText`). */
const workspaceWording: ErrorWording = {
  // A parameter's own error keeps its words; move_file's seed says the rest in two.
  invalid: editOr((e) =>
    e.tool === "move_file" && e.detail.parameter === undefined ? "Invalid operation" : e.text,
  ),
  outside_roots: moveOr("Invalid path", outside),
  // mcpfs's own refusals (--deny, a moved link that would point outside) say why: no seed words to keep.
  denied: asIs,
  os_denied: moveOr("Permission denied"),
  // The gitignore refusal keeps its full message, as in mcp-workspace.
  ignored: asIs,
  read_only: moveOr("Invalid path"),
  not_found: moveOr(
    "File not found",
    editOr((e) => {
      if (FILE_TOOLS.has(e.tool)) return `File '${e.path}' does not exist`;
      if (e.tool === "edit_file" && e.detail.reason === "file") return `File not found: ${e.path}`;
      if (e.tool === "list_directory" && e.detail.reason === undefined)
        return `Directory '${e.path}' does not exist`;
      return e.text;
    }),
  ),
  exists: moveOr("Destination already exists"),
  not_file: (e) => {
    if (e.tool === "delete_this_file") return `Path '${e.path}' is not a file or is a directory`;
    if (FILE_TOOLS.has(e.tool)) return `Path '${e.path}' is not a file`;
    if (e.tool === "edit_file" && e.detail.reason === undefined) return `Not a file: ${e.path}`;
    return e.text;
  },
  not_directory: (e) => {
    if (e.tool === "delete_directory")
      return `Path '${e.path}' is a file, not a directory. Use delete_this_file instead.`;
    if (e.tool === "list_directory" && e.detail.reason === undefined)
      return `Path '${e.path}' is not a directory`;
    return e.text;
  },
  not_empty: (e) => `Directory '${e.path}' is not empty. Pass recursive=True to delete it and its contents.`,
  too_large: asIs,
  // mcp-workspace's words, then the core's: the likely encodings and how to pass one.
  not_utf8: (e) => `File '${e.path}' contains invalid characters. ${e.text}`,
  conflict: editOr(asIs),
  no_roots: asIs,
  journal_full: asIs,
  cancelled: asIs,
  io: moveOr("Move operation failed"),
};

/** mcp-workspace's choices. */
export const workspacePolicy: SurfacePolicy = {
  name: "workspace",
  // mcp-workspace (FastMCP) words every tool failure this way; clients may match on it.
  errorText: (tool, err, message, requested) =>
    `Error executing tool ${tool}: ${wordError(workspaceWording, tool, err, message, requested)}`,
  // The workspace seed promises every call at INFO.
  callLogLevel: "info",
  // The project directory is the workspace; client roots never change it.
  clientRoots: false,
  // mcp-workspace's rule: paths are relative to the project (or a reference project) and `..` is refused;
  // `.git/` and what .gitignore files ignore can be neither read nor written.
  pathRules: () => ({ anchored: true, hideIgnored: true, gitDirWrites: false }),
};
