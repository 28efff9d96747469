/**
 * The structured edit tools for both surfaces: notebook_read, notebook_edit, read_structured,
 * edit_structured and edit_lines. A surface gives its path resolution, reply shape and parameter names;
 * the descriptions live here once. Algorithms live in core/structured/.
 */
import { z } from "zod";
import { fencedDiff } from "../core/edit/diff.js";
import { ToolError } from "../core/errors.js";
import { configFormat, editConfigText, queryConfig } from "../core/structured/config-edit.js";
import { applyLineEdits } from "../core/structured/line-edit.js";
import { editNotebookText } from "../core/structured/notebook.js";
import { viewCells } from "../core/structured/notebook-view.js";
import type { StructuredEdit } from "../core/structured/path-expr.js";
import { type RewriteResult, readUtf8, rewriteText } from "../core/structured/rewrite.js";
import type { ResolvedPath } from "../core/workspace.js";
import {
  type AnyToolDef,
  type ContentBlock,
  defineTool,
  encodingFor,
  encodingParam,
  recordChanges,
  type ToolContext,
  type ToolReply,
} from "./tool.js";

/** How a surface names and resolves things. */
export interface StructuredSurface {
  file(ctx: ToolContext, requested: string, intent: "read" | "write"): Promise<ResolvedPath>;
  /** The reply with the surface's text field. */
  reply(text: string, fields: Record<string, unknown>): ToolReply;
  /** The output schema with the surface's text field. */
  out(fields: z.ZodRawShape): z.ZodObject;
  /** Parameter names: camelCase on the filesystem surface, snake_case on the workspace one. */
  names: {
    path: string;
    expectedSha256: string;
    dryRun: string;
    keepOutputs: string;
    startLine: string;
    endLine: string;
    newText: string;
  };
}

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const editing = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;
const cellRef = z.union([z.number().int().min(0), z.string()]);
const cellType = z.enum(["code", "markdown", "raw"]);
const editFields = {
  written: z.boolean(),
  sha256: z.string().describe("sha256 of the file after the call"),
  truncated: z.boolean().optional(),
};
type Args = Record<string, unknown>;

function diffReply(s: StructuredSurface, ctx: ToolContext, r: RewriteResult): ToolReply {
  if (r.change) recordChanges(ctx, [r.change]);
  const tail = `\n[mcpfs: ${r.written ? "written" : "nothing written"}; sha256 ${r.sha256}]`;
  const close = ctx.budget.reserve(tail);
  const { text, truncated } = ctx.budget.fit(fencedDiff(r.diff), "\n[mcpfs: diff truncated.]", true);
  return s.reply(text + close(tail), { written: r.written, sha256: r.sha256, truncated });
}

function common(s: StructuredSurface, required: boolean) {
  const sha = z.string().describe("sha256 your read returned; refused if the file changed since");
  return {
    [s.names.path]: z.string(),
    [s.names.expectedSha256]: required ? sha : sha.optional(),
    [s.names.dryRun]: z.boolean().optional().describe("Show the diff; write nothing"),
  };
}

function notebookRead(s: StructuredSurface): AnyToolDef {
  return defineTool({
    name: "notebook_read",
    title: "Read Notebook",
    description:
      "A Jupyter notebook's cells: index, id, type, source, execution count and outputs (text; images named, or returned with outputs=all). Edit with notebook_edit.",
    input: z.object({
      [s.names.path]: z.string(),
      cells: z.array(cellRef).optional().describe("Cell indexes or ids (default all)"),
      outputs: z.enum(["none", "text", "all"]).optional().describe("Default text"),
    }),
    output: s.out({
      cells: z.array(
        z.object({
          index: z.number(),
          id: z.string().optional(),
          type: z.string(),
          executionCount: z.number().nullable().optional(),
        }),
      ),
      sha256: z.string(),
      truncated: z.boolean().optional(),
    }),
    annotations: readOnly,
    mutating: false,
    handler: async (a: Args, ctx) => {
      const target = await s.file(ctx, a[s.names.path] as string, "read");
      const { text, sha256 } = await readUtf8(target, encodingFor(ctx, a.encoding as string | undefined));
      const mode = (a.outputs as "none" | "text" | "all" | undefined) ?? "text";
      const cells = viewCells(text, mode, a.cells as (number | string)[] | undefined);
      const lines = cells.flatMap((c) => c.lines);
      const head = `[mcpfs: ${cells.length} cells; sha256 ${sha256}]`;
      const { kept, note } = ctx.budget.fitLines(
        [head, ...lines],
        (k) => `\n[mcpfs: output truncated after ${k} lines. Continue with cells=[…] or outputs=none.]`,
      );
      const images: ContentBlock[] = [];
      for (const img of cells.flatMap((c) => c.images))
        if (ctx.budget.take(img.data)) images.push({ type: "image", ...img });
      const reply = s.reply([head, ...lines].slice(0, kept).join("\n") + (note ?? ""), {
        cells: cells.map(({ index, id, type, executionCount }) => ({ index, id, type, executionCount })),
        sha256,
        truncated: note !== undefined,
      });
      reply.content.push(...images);
      return reply;
    },
  });
}

function notebookEdit(s: StructuredSurface): AnyToolDef {
  const edit = z.union([
    z.object({ cell: cellRef, source: z.string().optional(), type: cellType.optional() }),
    z.object({ insert: z.object({ at: z.number().int().min(0), type: cellType, source: z.string() }) }),
    z.object({ delete: cellRef }),
  ]);
  return defineTool({
    name: "notebook_edit",
    title: "Edit Notebook",
    description:
      "Edit, insert or delete notebook cells (by index or id; applied in order). Other cells stay byte-identical; an edited code cell's outputs are cleared. The result is checked against nbformat 4.",
    input: z.object({
      ...common(s, false),
      edits: z.array(edit).min(1),
      [s.names.keepOutputs]: z.boolean().optional().describe("Keep an edited code cell's outputs"),
    }),
    output: s.out(editFields),
    annotations: editing,
    mutating: true,
    handler: async (a: Args, ctx) => {
      const requested = a[s.names.path] as string;
      const target = await s.file(ctx, requested, a[s.names.dryRun] ? "read" : "write");
      const keep = a[s.names.keepOutputs] === true;
      const r = await rewriteText(target, opts(s, a, requested, ctx), (t) =>
        editNotebookText(t, a.edits as never, keep),
      );
      return diffReply(s, ctx, r);
    },
  });
}

function opts(s: StructuredSurface, a: Args, requested: string, ctx: ToolContext) {
  return {
    expectedSha256: a[s.names.expectedSha256] as string | undefined,
    dryRun: a[s.names.dryRun] as boolean | undefined,
    diffName: requested,
    encoding: encodingFor(ctx, a.encoding as string | undefined),
  };
}

function readStructured(s: StructuredSurface): AnyToolDef {
  return defineTool({
    name: "read_structured",
    title: "Read Structured",
    description: "The value at a path (a.b[2].c) of a JSON, JSONC, YAML or TOML file, as JSON.",
    input: z.object({
      [s.names.path]: z.string(),
      query: z.string().optional().describe("Default: the whole document"),
      encoding: encodingParam,
    }),
    output: s.out({ sha256: z.string(), truncated: z.boolean().optional() }),
    annotations: readOnly,
    mutating: false,
    handler: async (a: Args, ctx) => {
      const requested = a[s.names.path] as string;
      const target = await s.file(ctx, requested, "read");
      const format = configFormat(target.real, requested);
      const { text, sha256 } = await readUtf8(target, encodingFor(ctx, a.encoding as string | undefined));
      const value = await queryConfig(format, text, a.query as string | undefined);
      const json = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) ?? "null";
      const fit = ctx.budget.fit(json, "\n[mcpfs: value truncated. Give a deeper query.]", true);
      return s.reply(fit.text, { sha256, truncated: fit.truncated });
    },
  });
}

function editStructured(s: StructuredSurface): AnyToolDef {
  const edit = z.union([
    z.object({ set: z.string(), value: z.unknown() }),
    z.object({ delete: z.string() }),
    z.object({ merge: z.string(), value: z.unknown() }),
  ]);
  return defineTool({
    name: "edit_structured",
    title: "Edit Structured",
    description:
      "Set, delete or merge values by path (a.b[2].c) in a JSON, JSONC, YAML or TOML file, in order; comments, key order and the rest of the file are kept. Returns the diff.",
    input: z.object({ ...common(s, false), edits: z.array(edit).min(1), encoding: encodingParam }),
    output: s.out(editFields),
    annotations: editing,
    mutating: true,
    handler: async (a: Args, ctx) => {
      const requested = a[s.names.path] as string;
      const target = await s.file(ctx, requested, a[s.names.dryRun] ? "read" : "write");
      const format = configFormat(target.real, requested);
      const edits = a.edits as StructuredEdit[];
      for (const e of edits)
        if (("set" in e || "merge" in e) && (e as { value?: unknown }).value === undefined)
          throw new ToolError("invalid", { reason: "value_needed", parameter: "value" });
      const r = await rewriteText(target, opts(s, a, requested, ctx), (t) =>
        editConfigText(format, t, edits),
      );
      return diffReply(s, ctx, r);
    },
  });
}

function editLines(s: StructuredSurface): AnyToolDef {
  const n = s.names;
  return defineTool({
    name: "edit_lines",
    title: "Edit Lines",
    description: `Replace line ranges (1-based, inclusive; ${n.endLine}=${n.startLine}-1 inserts) with new text. ${n.expectedSha256} is required, so line numbers from an older read cannot hit other lines. Returns the diff.`,
    input: z.object({
      ...common(s, true),
      edits: z
        .array(
          z.object({
            [n.startLine]: z.number().int().min(1),
            [n.endLine]: z.number().int().min(0),
            [n.newText]: z.string(),
          }),
        )
        .min(1),
      encoding: encodingParam,
    }),
    output: s.out(editFields),
    annotations: editing,
    mutating: true,
    handler: async (a: Args, ctx) => {
      const requested = a[n.path] as string;
      const target = await s.file(ctx, requested, a[n.dryRun] ? "read" : "write");
      const edits = (a.edits as Args[]).map((e) => ({
        startLine: e[n.startLine] as number,
        endLine: e[n.endLine] as number,
        newText: e[n.newText] as string,
      }));
      const r = await rewriteText(target, opts(s, a, requested, ctx), (t) => applyLineEdits(t, edits));
      return diffReply(s, ctx, r);
    },
  });
}

export function structuredTools(s: StructuredSurface): AnyToolDef[] {
  return [notebookRead(s), notebookEdit(s), readStructured(s), editStructured(s), editLines(s)];
}
