import { z } from "zod";
import type { Edit, EditMatch } from "../../core/edit/edit.js";
import { editFile } from "../../core/edit/edit-file.js";
import { ToolError } from "../../core/errors.js";
import { KeyedMutex } from "../../core/fs/file-lock.js";
import { entryKind } from "../../core/mutate/remove.js";
import { lfPieces } from "../../core/text/lines.js";
import { defineTool, encodingFor, encodingParam, recordChanges, type ToolContext } from "../tool.js";
import { expectedSha256, gitignoreGate, requireFilePath, resolveIn, strOutput, strReply } from "./common.js";

/**
 * One queue per file for the whole process: edits of the same file from concurrent calls (or connections)
 * run one after another instead of racing; the map holds only paths with work in flight.
 */
const editLocks = new KeyedMutex();

const ALREADY_APPLIED = "No changes needed - edit already applied";
const NOTHING_CHANGED = "No changes needed - content already in desired state";

/**
 * What an already-applied verdict rests on, so a model can tell "my edit is there" from "my old text is
 * gone and the new text merely occurs somewhere": the seed's line, then what was seen, edit by edit.
 */
function appliedReport(
  head: string,
  matches: readonly EditMatch[],
  names: { old: string; new: string },
): string {
  const seen = matches.map((m) => {
    const where = `line ${m.lines[0]}`;
    const what = m.oldFound
      ? `the text at ${names.old}'s match (${where}) already reads ${names.new}`
      : `${names.old} not found, ${names.new} found at ${where}`;
    return matches.length > 1 ? `edit ${m.index + 1}: ${what}` : what;
  });
  return `${head}: ${seen.join("; ")}. Nothing was changed; if that is not your edit, read the file and retry.`;
}

/** Legacy option: an unindented replacement takes the indentation of old_text's first line. */
function withIndentation(oldText: string, newText: string): string {
  const indent = /^[ \t]*/.exec(oldText)![0];
  if (indent === "" || /^[ \t]/.test(newText)) return newText;
  return lfPieces(newText)
    .map((l) => (l.trim() === "" ? l : indent + l))
    .join("\n");
}

const input = z.object({
  file_path: z.string().describe("Project-relative path"),
  old_string: z.string().optional(),
  new_string: z.string().optional().describe("Replacement text"),
  replace_all: z.boolean().default(false).describe("Replace every match"),
  edits: z.array(z.object({ old_text: z.string(), new_text: z.string() })).optional(),
  dry_run: z.boolean().default(false).describe("Show the diff; write nothing"),
  expected_sha256: expectedSha256,
  encoding: encodingParam,
  options: z
    .looseObject({ preserve_indentation: z.boolean().optional() })
    .optional()
    .describe("preserve_indentation: give new_text old_text's indentation"),
});

type Args = z.infer<typeof input>;

async function run(args: Args, ctx: ToolContext): Promise<string> {
  const filePath = requireFilePath(args.file_path).replace(/\\/g, "/");
  const seedShape = args.edits !== undefined;
  if (seedShape && (args.old_string !== undefined || args.new_string !== undefined))
    throw new ToolError("invalid", { reason: "edit_shapes_both" });
  if (!seedShape && (args.old_string === undefined || args.new_string === undefined))
    throw new ToolError("invalid", { reason: "edit_shape_missing" });
  const target = await resolveIn(ctx, filePath, "write");
  await gitignoreGate(ctx, target, filePath);

  return editLocks.run(target.real, async () => {
    const kind = await entryKind(target);
    if (kind === "missing") throw new ToolError("not_found", { reason: "file", path: filePath });
    if (kind !== "file") throw new ToolError("not_file", { path: filePath });
    const indent = args.options?.preserve_indentation === true;
    for (const key of Object.keys(args.options ?? {}))
      if (key !== "preserve_indentation") ctx.log.warn(`edit_file: unknown option ignored: ${key}`);
    const edits: Edit[] = seedShape
      ? args.edits!.map((e) => ({
          oldText: e.old_text,
          newText: indent ? withIndentation(e.old_text, e.new_text) : e.new_text,
          replaceAll: args.replace_all,
        }))
      : [{ oldText: args.old_string!, newText: args.new_string!, replaceAll: args.replace_all }];
    const r = await editFile(target, edits, {
      match: "exact",
      sequential: true,
      multiple: seedShape ? "first" : "error",
      detectApplied: true,
      emptyOldText: seedShape ? "error" : "prepend",
      names: { oldText: seedShape ? "old_text" : "old_string", replaceAll: "replace_all=True" },
      dryRun: args.dry_run,
      diffName: filePath,
      diffStyle: "git",
      expectedSha256: args.expected_sha256,
      encoding: encodingFor(ctx, args.encoding),
    });
    if (r.change) recordChanges(ctx, [r.change]);
    if (r.matches.every((m) => m.kind === "skipped"))
      return appliedReport(
        seedShape ? NOTHING_CHANGED : ALREADY_APPLIED,
        r.matches,
        seedShape ? { old: "old_text", new: "new_text" } : { old: "old_string", new: "new_string" },
      );
    if (!r.changed && seedShape) return NOTHING_CHANGED;
    const note =
      `\n[mcpfs: diff cut at ${ctx.budget.limit} bytes; ${r.written ? "the edit was applied" : "nothing was written"}. ` +
      "Read the changed lines with read_file start_line/end_line to check them.]";
    return ctx.budget.fit(r.diff, note, true).text;
  });
}

export const editFileTool = defineTool({
  name: "edit_file",
  title: "Edit File",
  description:
    "Replace old_string with new_string (exact, case- and whitespace-sensitive; empty old_string inserts at the start); more than one match is an error unless replace_all. Also takes edits=[{old_text, new_text}] applied in order. Returns a diff. Keeps line endings and BOM.",
  input,
  output: strOutput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  handler: async (args, ctx) => strReply(await run(args, ctx)),
});
