/** mcpfs's all-or-nothing multi-file changes on the filesystem surface: edit_files and apply_patch. */
import path from "node:path";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { fencedDiff, unifiedDiff } from "../../core/files/diff.js";
import { type Edit, editKeepingEndings } from "../../core/files/edit.js";
import { editFiles } from "../../core/files/multi-edit.js";
import { DEFAULT_FUZZ, MAX_FUZZ, planPatch } from "../../core/files/patch.js";
import { commitChanges } from "../../core/files/transaction.js";
import { defineTool, recordChanges, textReply } from "../tool.js";
import { budgeted, expectedSha256 } from "./extra-tools.js";

const editShape = z.object({
  oldText: z.string().describe("Exact text to replace"),
  newText: z.string().describe("Replacement text"),
  replaceAll: z.boolean().optional().describe("Replace every occurrence"),
});

/** One file's edits with the shared engine, keeping each line's own ending and the BOM. */
function applyKeepingFormat(text: string, edits: readonly Edit[]): string {
  return editKeepingEndings(text, edits).text;
}

export const editFilesTool = defineTool({
  name: "edit_files",
  title: "Edit Files",
  description:
    "Edit several files all or nothing: every edit is checked first, and if any oldText does not match or a file changed since its expectedSha256, no file changes. Edits match as in edit_file.",
  input: z.object({
    files: z
      .array(z.object({ path: z.string(), edits: z.array(editShape), expectedSha256 }))
      .describe("Each file once, with its edits"),
    dryRun: z.boolean().default(false).describe("Show the combined diff; write nothing"),
  }),
  output: z.object({
    content: z.string(),
    files: z.number().optional().describe("files changed (or, with dryRun, that would change)"),
    truncated: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    if (args.files.length === 0) throw new ToolError("files must list at least one file");
    const intent = args.dryRun ? "read" : "write";
    const files = [];
    for (const f of args.files)
      files.push({
        target: await ctx.ws.resolve(f.path, { intent }),
        edits: f.edits,
        expectedSha256: f.expectedSha256,
      });
    const r = await editFiles(files, applyKeepingFormat, {
      dryRun: args.dryRun,
      makeDiff: unifiedDiff,
      journal: ctx.journal,
    });
    recordChanges(ctx, r.changes);
    const count = args.dryRun ? files.length : r.changes.length;
    const out = budgeted(ctx, fencedDiff(r.diff));
    return textReply(out.text, { files: count, truncated: out.truncated });
  },
});

export const applyPatchTool = defineTool({
  name: "apply_patch",
  title: "Apply Patch",
  description:
    "Apply a unified diff (git diff or diff -u; new, deleted and renamed files too) all or nothing: hunks are found by their context near their line, whatever the line endings; if one fails, nothing changes and each failure is explained. Keeps line endings, BOM and modes.",
  input: z.object({
    patch: z.string(),
    directory: z
      .string()
      .optional()
      .describe("Base of the patch's paths (default: the first allowed directory)"),
    fuzz: z
      .number()
      .optional()
      .describe(
        `Context lines that may be ignored at each end of a hunk, 0-${MAX_FUZZ} (default ${DEFAULT_FUZZ})`,
      ),
    strip: z.number().optional().describe("Leading path parts to drop (default: 1 for a/ b/ paths, else 0)"),
    dryRun: z.boolean().default(false).describe("Show what would change; write nothing"),
  }),
  output: z.object({
    content: z.string(),
    files: z
      .array(
        z.object({
          action: z.enum(["modify", "create", "delete", "rename"]),
          path: z.string(),
          from: z.string().optional(),
          hunks: z.number(),
          added: z.number(),
          removed: z.number(),
          notes: z.array(z.string()),
        }),
      )
      .optional(),
    truncated: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  mutating: true,
  async handler(args, ctx) {
    const intent = args.dryRun ? "read" : "write";
    const baseRequested = args.directory ?? ctx.ws.roots[0]?.path;
    if (baseRequested === undefined) throw new ToolError("No allowed directories are configured", "no_roots");
    // The base directory itself must be allowed (each patch path is then resolved and confined on its own).
    await ctx.ws.resolve(baseRequested, { intent: "read" });
    const plan = await planPatch(args.patch, {
      resolve: (p) => {
        if (path.isAbsolute(p)) throw new ToolError(`Patch paths must be relative: ${p}`, "denied");
        return ctx.ws.resolve(path.join(baseRequested, p), { intent });
      },
      fuzz: args.fuzz,
      strip: args.strip,
    });
    const lines = plan.files.map((f) => {
      const head = `${f.action === "rename" ? `${f.from} -> ${f.path}` : f.path}: ${f.action}, ${f.hunks} hunk(s), +${f.added} -${f.removed}`;
      return f.notes.length ? `${head} (${f.notes.join("; ")})` : head;
    });
    let text: string;
    if (args.dryRun) {
      const diff = plan.texts.map((t) => unifiedDiff(t.path, t.before, t.after)).join("");
      text = `Patch applies cleanly (dry run, nothing written):\n${lines.join("\n")}\n\n${fencedDiff(diff)}`;
    } else {
      recordChanges(ctx, await commitChanges(plan.changes, { journal: ctx.journal }));
      text = `Patch applied to ${plan.files.length} file(s):\n${lines.join("\n")}`;
    }
    const out = budgeted(ctx, text);
    return textReply(out.text, { files: plan.files, truncated: out.truncated });
  },
});
