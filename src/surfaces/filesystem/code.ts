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
import { defineTool, type ToolReply, textReply } from "../tool.js";

/** Absolute or allowed paths, as every tool of this surface; a tree tool without `path` needs one root. */
const paths: CodePaths = {
  file: (ctx, requested, intent) => ctx.ws.resolve(requested, { intent }),
  async scope(ctx, requested) {
    let p = requested;
    if (p === undefined) {
      if (ctx.ws.roots.length !== 1)
        throw new ToolError(
          "Give path: a file or directory inside an allowed directory (list_allowed_directories).",
        );
      p = ctx.ws.roots[0]!.real;
    }
    const target = await ctx.ws.resolve(p, { intent: "read" });
    return scopeOf(ctx, target, ctx.config.gitignore, (real) => ctx.ws.resolve(real, { intent: "read" }));
  },
  names: { offset: "offset", expectedSha256: "expectedSha256" },
};

const reply = (r: CodeReply): ToolReply => textReply(r.text, r.fields);
const out = (fields: z.ZodRawShape) => z.object({ content: z.string(), ...fields });
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const editing = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;
const treePath = z
  .string()
  .optional()
  .describe("File or directory to search (default: the only allowed directory)");
const maxResults = z.number().int().positive().optional();
const editCommon = {
  path: z.string(),
  name: z.string().describe("Symbol name or qualified name (Class.method)"),
  expectedSha256: z
    .string()
    .optional()
    .describe("sha256 your read returned; refused if the file changed since"),
  dryRun: z.boolean().optional().describe("Show the diff; write nothing"),
};

const outlineTool = defineTool({
  name: "outline",
  title: "Outline",
  description:
    "Symbols of a code file, one line each ('L12-40 class Parser', nested), or of every code file under a directory (paged with offset). 12 languages + Markdown headings. Read one symbol with read_symbol.",
  input: z.object({
    path: z.string(),
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
    "Find definitions by name or qualified name (Parser.parse) under a path: 'path:L12-40 kind signature'. Parsed, not grepped: no hits in comments or calls. Usages: find_references.",
  input: z.object({
    name: z.string(),
    path: treePath,
    kind: kindParam.optional(),
    exact: z.boolean().optional().describe("false: names containing it, any case (default true)"),
    includeBody: z.boolean().optional().describe("Also show each definition's lines"),
    maxResults,
  }),
  output: out(codeFields.findSymbol),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await findSymbolCode(ctx, paths, a)),
});

const readSymbolTool = defineTool({
  name: "read_symbol",
  title: "Read Symbol",
  description: "The numbered lines of one symbol of a file, and the file's sha256 for replace_symbol.",
  input: z.object({
    path: z.string(),
    name: z.string().describe("Symbol name or qualified name (Class.method)"),
    context: z.number().int().min(0).optional().describe("Lines shown around it"),
  }),
  output: out(codeFields.readSymbol),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await readSymbolCode(ctx, paths, a)),
});

const findReferencesTool = defineTool({
  name: "find_references",
  title: "Find References",
  description:
    "Where an identifier occurs under a path, grouped per file, each line tagged definition|call|import|type|other; comments and strings skipped. Syntactic, not type-resolved.",
  input: z.object({ name: z.string(), path: treePath, maxResults }),
  output: out(codeFields.findReferences),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await findReferencesCode(ctx, paths, a)),
});

const replaceSymbolTool = defineTool({
  name: "replace_symbol",
  title: "Replace Symbol",
  description:
    "Replace a symbol's whole definition with newText and return the diff; refused if the result has new syntax errors. Undoable with undo_change.",
  input: z.object({ ...editCommon, newText: z.string() }),
  output: out(codeFields.editSymbol),
  annotations: editing,
  mutating: true,
  handler: async (a, ctx) =>
    reply(await editSymbolCode(ctx, paths, { ...a, placement: { kind: "replace", text: a.newText } })),
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
    reply(await editSymbolCode(ctx, paths, { ...a, placement: { kind: a.position, text: a.text } })),
});

const repoMapTool = defineTool({
  name: "repo_map",
  title: "Repository Map",
  description:
    "The most important code files and their definitions within a token budget, ranked by how the files reference each other (PageRank toward focus). Start here in an unknown repository.",
  input: z.object({
    path: treePath,
    maxTokens: z.number().int().positive().optional().describe("Default 1024"),
    focus: z.array(z.string()).optional().describe("Paths (relative to path) or symbol names to rank toward"),
  }),
  output: out(codeFields.repoMap),
  annotations: readOnly,
  mutating: false,
  handler: async (a, ctx) => reply(await repoMapCode(ctx, paths, a)),
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
