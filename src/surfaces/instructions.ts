import type { Config } from "../config/index.js";
import type { UrlOnlyReference } from "../core/references.js";
import type { Root } from "../core/workspace.js";

/**
 * What `initialize` tells a model before its first call: which tool to reach for first (under 120 words),
 * then the roots it may use. Clients put this in the model's context once per session.
 */
const GUIDE = {
  filesystem:
    "mcpfs: safe access to the allowed directories only. Find text with grep (search_files matches names, " +
    "not contents). Read a part of a large file with read_text_file startLine/endLine rather than the whole " +
    "file; a reply that was cut says in its last line how to get the rest. Change text with edit_file " +
    "(exact oldText), edit_files (several files, all or nothing) or apply_patch (a unified diff); write_file " +
    "replaces a whole file. Pass the sha256 of your read as expectedSha256, so that a change made since " +
    "is refused instead of overwritten.",
  workspace:
    "mcpfs: safe access to one project (paths relative to it, '..' refused) and read-only reference " +
    "projects. Find text with search_files pattern, files with its glob. Read a slice of a large file with " +
    "read_file start_line/end_line. Change text with edit_file (exact old_string); save_file replaces a " +
    "whole file. Pass the sha256 of your read as expected_sha256, so that a change made since is refused " +
    "instead of overwritten. git runs read-only commands.",
} as const;

export function instructionsFor(
  config: Pick<Config, "surface">,
  roots: readonly Root[],
  urlOnly: readonly UrlOnlyReference[],
): string {
  const list = roots.map(
    (r) => `${r.name ? `${r.name}: ` : ""}${r.path}${r.mode === "ro" ? " (read-only)" : ""}`,
  );
  for (const r of urlOnly) list.push(`${r.name}: ${r.url} (URL only, GitHub tools only)`);
  const guide = GUIDE[config.surface];
  if (config.surface === "workspace")
    return guide + (list.length ? `\nProject and references:\n${list.join("\n")}` : "");
  return (
    guide +
    (list.length
      ? `\nAllowed directories:\n${list.join("\n")}`
      : "\nNo directories yet: the client may provide them as roots.")
  );
}
