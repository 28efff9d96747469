import path from "node:path";
import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import {
  type CodePaths,
  type CodeReply,
  codeFields,
  editSymbolCode,
  findReferencesCode,
  findSymbolCode,
  kindParam,
  outlineCode,
  readSymbolCode,
  repoMapCode,
  scopeOf,
} from "../code-tools.js";
import { defineTool, type ToolReply } from "../tool.js";
import { gitignoreGate, projectRoot, requireFilePath, resolveIn } from "./common.js";

/** Project-relative paths, through the project's gate and its .gitignore, as read_file. */
const paths: CodePaths = {
  async file(ctx, requested, intent) {
    const target = await resolveIn(ctx, requireFilePath(requested), intent);
    await gitignoreGate(ctx, target, requested);
    return target;
  },
  async scope(ctx, requested) {
    const shown = requested ?? ".";
    const target = await resolveIn(ctx, shown, "read");
    await gitignoreGate(ctx, target, shown, "either");
    const base = projectRoot(ctx);
    return scopeOf(ctx, target, true, async (real) => {
      try {
        const t = await ctx.ws.resolve(real, { intent: "read", base });
        await gitignoreGate(ctx, t, path.relative(base.real, real), false);
        return t;
      } catch (err) {
        if (err instanceof ToolError && err.kind === "cancelled") throw err;
        return undefined;
      }
    });
  },
  names: { offset: "offset", expectedSha256: "expected_sha256" },
};

const reply = (r: CodeReply): ToolReply => ({
  content: [{ type: "text", text: r.text }],
  structuredContent: { result: r.text, ...r.fields },
});
const out = (fields: z.ZodRawShape) => z.object({ result: z.string(), ...fields });
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const editing = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;
const treePath = z.string().optional().describe('File or directory, project-relative (default ".")');
const maxResults = z.number().int().positive().optional();
const editCommon = {
  file_path: z.string().describe("Project-relative path"),
  name: z.string().describe("Symbol name or qualified name (Class.method)"),
  expected_sha256: z
    .string()
    .optional()
    .describe("sha256 your read returned; refused if the file changed since"),
  dry_run: z.boolean().optional().describe("Show the diff; write nothing"),
};

const outlineTool = defineTool({
  name: "outline",
  title: "Outline",
  description:
    "Symbols of a code file, one line each ('L12-40 class Parser', nested), or of every code file under a directory (paged with offset). 12 languages + Markdown headings. Read one symbol with read_symbol.",
  input: z.object({
    path: z.string().default(".").describe("File or directory, project-relative"),
    depth: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Levels shown (1 = top level; directory default 2)"),
    signatures: z.boolean().optional().describe("Signatures instead of 'kind name' (file default true)"),
    offset: z.number().int().min(0).optional().describe("Directory: files to skip (from a previous reply)"),
  }),
  output: out(codeFields.outline),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await outlineCode(ctx, paths, a)),
});

const findSymbolTool = defineTool({
  name: "find_symbol",
  title: "Find Symbol",
  description:
    "Find definitions by name or qualified name (Parser.parse): 'path:L12-40 kind signature'. Parsed, not grepped: no hits in comments or calls. Usages: find_references.",
  input: z.object({
    name: z.string(),
    path: treePath,
    kind: kindParam.optional(),
    exact: z.boolean().optional().describe("false: names containing it, any case (default true)"),
    include_body: z.boolean().optional().describe("Also show each definition's lines"),
    max_results: maxResults,
  }),
  output: out(codeFields.findSymbol),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) =>
    reply(await findSymbolCode(ctx, paths, { ...a, includeBody: a.include_body, maxResults: a.max_results })),
});

const readSymbolTool = defineTool({
  name: "read_symbol",
  title: "Read Symbol",
  description: "The numbered lines of one symbol of a file, and the file's sha256 for replace_symbol.",
  input: z.object({
    file_path: z.string().describe("Project-relative path"),
    name: z.string().describe("Symbol name or qualified name (Class.method)"),
    context: z.number().int().min(0).optional().describe("Lines shown around it"),
  }),
  output: out(codeFields.readSymbol),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await readSymbolCode(ctx, paths, { ...a, path: a.file_path })),
});

const findReferencesTool = defineTool({
  name: "find_references",
  title: "Find References",
  description:
    "Where an identifier occurs, grouped per file, each line tagged definition|call|import|type|other; comments and strings skipped. Syntactic, not type-resolved.",
  input: z.object({ name: z.string(), path: treePath, max_results: maxResults }),
  output: out(codeFields.findReferences),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await findReferencesCode(ctx, paths, { ...a, maxResults: a.max_results })),
});

const editArgs = (a: { file_path: string; name: string; expected_sha256?: string; dry_run?: boolean }) => ({
  path: a.file_path,
  name: a.name,
  expectedSha256: a.expected_sha256,
  dryRun: a.dry_run,
});

const replaceSymbolTool = defineTool({
  name: "replace_symbol",
  title: "Replace Symbol",
  description:
    "Replace a symbol's whole definition with new_text and return the diff; refused if the result has new syntax errors. Undoable with undo_change.",
  input: z.object({ ...editCommon, new_text: z.string() }),
  output: out(codeFields.editSymbol),
  annotations: editing,
  mutating: true,
  handler: async (a, ctx) =>
    reply(
      await editSymbolCode(ctx, paths, { ...editArgs(a), placement: { kind: "replace", text: a.new_text } }),
    ),
});

const insertSymbolTool = defineTool({
  name: "insert_symbol",
  title: "Insert Symbol",
  description:
    "Insert text as whole lines before or after a symbol (a blank line between); refused on new syntax errors.",
  input: z.object({ ...editCommon, position: z.enum(["before", "after"]), text: z.string() }),
  output: out(codeFields.editSymbol),
  annotations: editing,
  mutating: true,
  handler: async (a, ctx) =>
    reply(
      await editSymbolCode(ctx, paths, { ...editArgs(a), placement: { kind: a.position, text: a.text } }),
    ),
});

const repoMapTool = defineTool({
  name: "repo_map",
  title: "Repository Map",
  description:
    "The most important code files and their definitions within a token budget, ranked by how the files reference each other (PageRank toward focus). Start here in an unknown repository.",
  input: z.object({
    path: treePath,
    max_tokens: z.number().int().positive().optional().describe("Default 1024"),
    focus: z.array(z.string()).optional().describe("Paths (relative to path) or symbol names to rank toward"),
  }),
  output: out(codeFields.repoMap),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await repoMapCode(ctx, paths, { ...a, maxTokens: a.max_tokens })),
});

export const codeTools = [
  outlineTool,
  findSymbolTool,
  readSymbolTool,
  findReferencesTool,
  replaceSymbolTool,
  insertSymbolTool,
  repoMapTool,
];
