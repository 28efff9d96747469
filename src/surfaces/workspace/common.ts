import { z } from "zod";
import { ToolError } from "../../core/errors.js";
import { escapeName } from "../../core/paths.js";
import type { Intent, ResolvedPath, Root } from "../../core/workspace.js";
import { encodingParam, type ToolContext, type ToolReply } from "../tool.js";

/** The project root of a workspace-surface connection. */
export function projectRoot(ctx: ToolContext): Root {
  const root = ctx.ws.roots.find((r) => r.kind === "project");
  if (!root) throw new ToolError("no_roots", { reason: "project_unset" });
  return root;
}

/** The reference projects, in configuration order. */
export function referenceRoots(ctx: ToolContext): Root[] {
  return ctx.ws.roots.filter((r) => r.kind === "reference");
}

/** The local directory of a reference project; a URL-only reference has none and is refused by name. */
export function referenceRoot(ctx: ToolContext, name: string): Root {
  const root = referenceRoots(ctx).find((r) => r.name === name);
  if (root) return root;
  const urlOnly = ctx.ws.urlOnlyReferences.find((r) => r.name === name);
  if (urlOnly) throw new ToolError("not_found", { reason: "reference_url_only", name, actual: urlOnly.url });
  throw new ToolError("not_found", { reason: "reference_project", name });
}

/** How Python prints `type(x)` in mcp-workspace's parameter messages. */
export function pyType(value: unknown): string {
  if (value === null || value === undefined) return "<class 'NoneType'>";
  if (typeof value === "string") return "<class 'str'>";
  if (typeof value === "boolean") return "<class 'bool'>";
  if (typeof value === "number") return Number.isInteger(value) ? "<class 'int'>" : "<class 'float'>";
  if (Array.isArray(value)) return "<class 'list'>";
  return "<class 'dict'>";
}

export function requireFilePath(value: unknown): string {
  if (typeof value !== "string" || value === "")
    throw new ToolError("invalid", {
      reason: "file_path_type",
      parameter: "file_path",
      actual: pyType(value),
    });
  return value;
}

/**
 * Resolves a client path against `base` (the project unless given); the refusals (a `..` segment, a
 * location outside the base) are worded by the surface's table (`workspaceWording`).
 */
export function resolveIn(
  ctx: ToolContext,
  requested: string,
  intent: Intent,
  base: Root = projectRoot(ctx),
): Promise<ResolvedPath> {
  // An empty path is refused (it is no spelling of the project root).
  return ctx.ws.resolve(requested, { intent, base });
}

/**
 * Resolves a path that names a directory entry itself (delete, move): a symlink stays the link and is never
 * followed; one pointing outside the base is refused (the core's `resolveEntry`).
 */
export function resolveEntry(
  ctx: ToolContext,
  requested: string,
  intent: Intent,
  base: Root = projectRoot(ctx),
): Promise<ResolvedPath> {
  const trimmed = requested.length > 1 ? requested.replace(/\/+$/, "") : requested;
  return ctx.ws.resolveEntry(trimmed === "" ? "." : trimmed, { intent, base });
}

/**
 * The read/write gate of mcp-workspace: anything under `.git/` or ignored by a `.gitignore` (root and nested)
 * is refused. The workspace's one gate (resources and completions call the same); `shown` is the path as
 * the client sent it; `isDir: "either"` when the kind is not known.
 */
export function gitignoreGate(
  ctx: ToolContext,
  target: ResolvedPath,
  shown: string,
  isDir: boolean | "either" = false,
): Promise<void> {
  return ctx.ws.gate(target, shown, isDir);
}

/*
 * Replies as FastMCP (mcp>=1.10) renders a tool's Python return value: the text content plus structured
 * content that matches the tool's output schema (`{"result": ...}` for str, bool and list[str]).
 */

export const strOutput = z.object({ result: z.string() });
export const boolOutput = z.object({ result: z.boolean() });
export const listOutput = z.object({ result: z.array(z.string()) });

/** A Python `str` result. */
export function strReply(text: string): ToolReply {
  return { content: [{ type: "text", text }], structuredContent: { result: text } };
}

/** A Python `bool` result. */
export function boolReply(value: boolean): ToolReply {
  return {
    content: [{ type: "text", text: value ? "true" : "false" }],
    structuredContent: { result: value },
  };
}

/**
 * A Python `list[str]` result: one text block per element, plus `{"result": [...]}`. A block is one line: a
 * name's control characters are escaped there (the structured list keeps the real names).
 */
export function listReply(items: string[]): ToolReply {
  return {
    content: items.map((text) => ({ type: "text" as const, text: escapeName(text) })),
    structuredContent: { result: items },
  };
}

/**
 * A `dict` result held to the reply budget: while its JSON does not fit, the lists under `trim` (in that
 * order) keep only the items that do, and `truncated` is set. The JSON stays whole and parseable.
 * `finish` completes a candidate before it is measured (a note that counts what the lists kept).
 */
export function dictReplyWithin(
  ctx: ToolContext,
  obj: Record<string, unknown>,
  trim: readonly string[],
  finish: (o: Record<string, unknown>) => Record<string, unknown> = (o) => o,
): ToolReply {
  const json = (o: Record<string, unknown>) => JSON.stringify(finish(o), null, 2);
  let out = obj;
  for (const key of trim) {
    if (ctx.budget.fits(json(out))) break;
    const list = out[key];
    if (!Array.isArray(list)) continue;
    // The most items that fit: binary search over the count.
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (ctx.budget.fits(json({ ...out, [key]: list.slice(0, mid), truncated: true }))) lo = mid;
      else hi = mid - 1;
    }
    out = { ...out, [key]: list.slice(0, lo), truncated: true };
  }
  const done = finish(out);
  ctx.budget.take(JSON.stringify(done, null, 2));
  return dictReply(done);
}

/** A Python `dict` result: its JSON with 2-space indentation, plus the object itself. */
export function dictReply(obj: Record<string, unknown>): ToolReply {
  return { content: [{ type: "text", text: JSON.stringify(obj, null, 2) }], structuredContent: obj };
}

/** mcp-workspace writes text with LF line breaks and refuses what UTF-8 cannot encode (lone surrogates). */
export function contentText(content: unknown, ctx: ToolContext): string {
  if (content === null || content === undefined) {
    ctx.log.warn("Content is None, treating as empty string");
    return "";
  }
  if (typeof content !== "string")
    throw new ToolError("invalid", { reason: "content_type", parameter: "content", actual: pyType(content) });
  if (/\p{Surrogate}/u.test(content))
    throw new ToolError("invalid", { reason: "content_surrogates", parameter: "content" });
  return content.replace(/\r\n/g, "\n");
}

/** save_file's and append_file's first steps: the path checked, the content decoded, the target gated. */
export async function textWriteTarget(
  args: { file_path?: unknown; content?: unknown },
  ctx: ToolContext,
): Promise<{ filePath: string; text: string; target: ResolvedPath }> {
  const filePath = requireFilePath(args.file_path);
  const text = contentText(args.content, ctx);
  const target = await resolveIn(ctx, filePath, "write");
  await gitignoreGate(ctx, target, filePath);
  return { filePath, text, target };
}

/** mcpfs: lost-update protection, optional so mcp-workspace's clients are unaffected. */
export const expectedSha256 = z
  .string()
  .optional()
  .describe("sha256 your read returned; refused if the file changed since");

/** save_file's and append_file's parameters. */
export const fileInput = z.object({
  file_path: z.string().describe("Project-relative path"),
  content: z.string().nullable(),
  expected_sha256: expectedSha256,
  encoding: encodingParam,
});

/** A plain text reply held to the reply budget; a cut one ends with how to ask for less. */
export function boundedReply(ctx: ToolContext, text: string): ToolReply {
  const note = `\n[output cut at ${ctx.budget.limit} bytes; narrow the request or lower max_lines]`;
  return strReply(ctx.budget.fit(text, note).text);
}
