/**
 * The seven code tools, defined once: each surface gives its path rules (`CodePaths`), how it spells a
 * parameter (`param`: `maxResults` or `max_results`), its tree and file path parameters and its reply shape.
 * The parameters below are written in camelCase; the surface's schema carries its own names.
 */
import { z } from "zod";
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
} from "./code-tools.js";
import {
  type AnyToolDef,
  defineTool,
  type ToolAnnotations,
  type ToolContext,
  type ToolReply,
} from "./tool.js";

export interface CodeSurface extends CodePaths {
  /** The one-file tools' path parameter (named by `param("filePath")`). */
  filePath: z.ZodString;
  /** The tree tools' optional path parameter. */
  treePath: z.ZodOptional<z.ZodString>;
  /** outline's path parameter (a file or a directory). */
  outlinePath: z.ZodType<string>;
  /** The reply's text field beside the tool's own fields. */
  textField: "content" | "result";
}

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const editing = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

const symbolName = z.string().describe("Symbol name or qualified name (Class.method)");
const maxResults = z.number().int().positive().optional();

interface Spec<Shape extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  shape: Shape;
  output: z.ZodRawShape;
  annotations: ToolAnnotations;
  run(a: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<CodeReply>;
}

/** One tool on one surface: the shape's keys renamed for the surface, the arguments renamed back. */
function codeTool<Shape extends z.ZodRawShape>(s: CodeSurface, spec: Spec<Shape>): AnyToolDef {
  const keys = Object.keys(spec.shape);
  const input = z.object(Object.fromEntries(keys.map((k) => [s.param(k), spec.shape[k]!])));
  const reply = (r: CodeReply): ToolReply => ({
    content: [{ type: "text", text: r.text }],
    structuredContent: { [s.textField]: r.text, ...r.fields },
  });
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input,
    output: z.object({ [s.textField]: z.string(), ...spec.output }),
    annotations: spec.annotations,
    mutating: !spec.annotations.readOnlyHint,
    handler: async (a: Record<string, unknown>, ctx) => {
      // The schema validated `a` under the surface's names: the same values under the shape's names.
      const canonical = Object.fromEntries(keys.map((k) => [k, a[s.param(k)]]));
      return reply(await spec.run(canonical as z.infer<z.ZodObject<Shape>>, ctx));
    },
  });
}

function editTools(s: CodeSurface): AnyToolDef[] {
  const common = {
    filePath: s.filePath,
    name: symbolName,
    expectedSha256: z
      .string()
      .optional()
      .describe("sha256 your read returned; refused if the file changed since"),
    dryRun: z.boolean().optional().describe("Show the diff; write nothing"),
  };
  const edit = (a: { filePath: string; name: string; expectedSha256?: string; dryRun?: boolean }) => ({
    path: a.filePath,
    name: a.name,
    expectedSha256: a.expectedSha256,
    dryRun: a.dryRun,
  });
  return [
    codeTool(s, {
      name: "replace_symbol",
      title: "Replace Symbol",
      description: `Replace a symbol's whole definition with ${s.param("newText")} (written from the margin or indented as in the file) and return the diff; refused if the result has new syntax errors. Undoable with undo_change.`,
      shape: { ...common, newText: z.string() },
      output: codeFields.editSymbol,
      annotations: editing,
      run: (a, ctx) =>
        editSymbolCode(ctx, s, { ...edit(a), placement: { kind: "replace", text: a.newText } }),
    }),
    codeTool(s, {
      name: "insert_symbol",
      title: "Insert Symbol",
      description:
        "Insert text as whole lines before or after a symbol (a blank line between), unindented text indented as the symbol is; refused on new syntax errors.",
      shape: { ...common, position: z.enum(["before", "after"]), text: z.string() },
      output: codeFields.editSymbol,
      annotations: editing,
      run: (a, ctx) => editSymbolCode(ctx, s, { ...edit(a), placement: { kind: a.position, text: a.text } }),
    }),
  ];
}

/** outline: the symbols of a file, or of every code file under a directory. */
function outlineTool(s: CodeSurface): AnyToolDef {
  return codeTool(s, {
    name: "outline",
    title: "Outline",
    description:
      "Symbols of a code file, one line each ('L12-40 class Parser', nested), or of every code file under a directory; paged with offset. 12 languages + Markdown headings. Read one symbol with read_symbol.",
    shape: {
      path: s.outlinePath,
      depth: z
        .number()
        .int()
        .positive()
        .optional()
        .describe("Levels shown (1 = top level; directory default 2)"),
      signatures: z.boolean().optional().describe("Signatures instead of 'kind name' (file default true)"),
      offset: z.number().int().min(0).optional().describe("Files or symbols to skip (from a previous reply)"),
    },
    output: codeFields.outline,
    annotations: readOnly,
    run: (a, ctx) => outlineCode(ctx, s, a),
  });
}

/** The code tools of a surface, in catalog order. */
export function codeToolsFor(s: CodeSurface): AnyToolDef[] {
  const [replaceSymbol, insertSymbol] = editTools(s);
  return [
    outlineTool(s),
    codeTool(s, {
      name: "find_symbol",
      title: "Find Symbol",
      description:
        "Find definitions by name or qualified name (Parser.parse): 'path:L12-40 kind signature'. Parsed, not grepped: no hits in comments or calls. Usages: find_references.",
      shape: {
        name: z.string(),
        path: s.treePath,
        kind: kindParam.optional(),
        exact: z.boolean().optional().describe("false: names containing it, any case (default true)"),
        includeBody: z.boolean().optional().describe("Also show each definition's lines"),
        maxResults,
      },
      output: codeFields.findSymbol,
      annotations: readOnly,
      run: (a, ctx) => findSymbolCode(ctx, s, a),
    }),
    codeTool(s, {
      name: "read_symbol",
      title: "Read Symbol",
      description: "The numbered lines of one symbol of a file, and the file's sha256 for replace_symbol.",
      shape: {
        filePath: s.filePath,
        name: symbolName,
        context: z.number().int().min(0).optional().describe("Lines shown around it"),
      },
      output: codeFields.readSymbol,
      annotations: readOnly,
      run: (a, ctx) => readSymbolCode(ctx, s, { ...a, path: a.filePath }),
    }),
    codeTool(s, {
      name: "find_references",
      title: "Find References",
      description:
        "Where an identifier occurs, grouped per file, each line tagged definition|call|import|type|other; comments and strings skipped. Syntactic, not type-resolved.",
      shape: { name: z.string(), path: s.treePath, maxResults },
      output: codeFields.findReferences,
      annotations: readOnly,
      run: (a, ctx) => findReferencesCode(ctx, s, a),
    }),
    replaceSymbol!,
    insertSymbol!,
    codeTool(s, {
      name: "repo_map",
      title: "Repository Map",
      description:
        "The most important code files and their definitions within a token budget, ranked by how the files reference each other (PageRank toward focus). Start here in an unknown repository.",
      shape: {
        path: s.treePath,
        maxTokens: z.number().int().positive().optional().describe("Default 1024"),
        focus: z
          .array(z.string())
          .optional()
          .describe("Paths (relative to path) or symbol names to rank toward"),
      },
      output: codeFields.repoMap,
      annotations: readOnly,
      run: (a, ctx) => repoMapCode(ctx, s, a),
    }),
  ];
}
