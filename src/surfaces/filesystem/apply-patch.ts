import path from "node:path";
import { z } from "zod";
import { fencedDiff, unifiedDiff } from "../../core/edit/diff.js";
import { DEFAULT_FUZZ, MAX_FUZZ, planPatch } from "../../core/edit/patch.js";
import { ToolError } from "../../core/errors.js";
import { commitChanges } from "../../core/mutate/transaction.js";
import { escapeName } from "../../core/paths.js";
import { defineTool, encodingFor, encodingParam, recordChanges, textReply } from "../tool.js";
import { budgeted } from "./common.js";

export const applyPatchTool = defineTool({
  name: "apply_patch",
  title: "Apply Patch",
  description:
    "Apply a unified diff (git diff or diff -u; new, deleted and renamed files too) all or nothing: hunks match by context near their line; if one fails, nothing changes and each failure is explained. Keeps line endings, BOM and modes.",
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
    encoding: encodingParam,
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
    if (baseRequested === undefined) throw new ToolError("no_roots", {});
    // The base directory itself must be allowed (each patch path is then resolved and confined on its own).
    await ctx.ws.resolve(baseRequested, { intent: "read" });
    const plan = await planPatch(args.patch, {
      resolve: (p) => {
        if (path.isAbsolute(p)) throw new ToolError("denied", { reason: "patch_absolute", name: p });
        return ctx.ws.resolve(path.join(baseRequested, p), { intent });
      },
      fuzz: args.fuzz,
      strip: args.strip,
      encoding: encodingFor(ctx, args.encoding),
    });
    const lines = plan.files.map((f) => {
      const head = `${f.action === "rename" ? `${escapeName(f.from ?? "")} -> ${escapeName(f.path)}` : escapeName(f.path)}: ${f.action}, ${f.hunks} hunk(s), +${f.added} -${f.removed}`;
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
