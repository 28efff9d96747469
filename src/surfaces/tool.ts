import { z } from "zod";
import type { Config } from "../config/index.js";
import type { AuditEntry } from "../core/audit.js";
import type { ReplyBudget } from "../core/budget.js";
import type { Logger } from "../core/log.js";
import type { ReadMemory } from "../core/mutate/read-memory.js";
import type { ChangeResult, JournalScope } from "../core/mutate/transaction.js";
import type { Workspace } from "../core/workspace.js";

/** What a tool handler may use. A surface never touches `fs`: it calls the core with `ws`. */
export interface ToolContext {
  readonly ws: Workspace;
  readonly config: Config;
  readonly log: Logger;
  /** Aborted when the client cancels the request. */
  readonly signal: AbortSignal;
  /** Sends a progress notification when the client asked for progress; otherwise a no-op. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * This reply's room (`--max-output-bytes`): every formatter asks it before adding text and holds room
   * for its closing note; the runner cuts whatever still exceeds it.
   */
  readonly budget: ReplyBudget;
  /** The protocol era of this connection. */
  readonly era: "legacy" | "modern";
  /**
   * What this connection's client was shown by whole-file reads (by sha256): read tools remember, and a
   * lost-update refusal shows the diff from the version read to the current one.
   */
  readonly reads: ReadMemory;
  /** The change journal (absent with `--no-journal`): multi-file changes pass it to the core. */
  readonly journal?: JournalScope;
  /** Notes one change a mutating tool made, for the audit log (tool name and duration are added). */
  recordMutation(m: MutationRecord): void;
}

/** What a tool changed: one line of the audit log. */
export type MutationRecord = Pick<AuditEntry, "op" | "path" | "from" | "bytes" | "before" | "after">;

/** Records the results of `commitChanges` (or a core operation built on it). */
export function recordChanges(ctx: ToolContext, results: readonly ChangeResult[], from?: string): void {
  for (const r of results)
    ctx.recordMutation({
      op: r.kind,
      path: r.requested,
      bytes: r.bytes,
      ...(r.before ? { before: r.before } : {}),
      ...(r.after ? { after: r.after } : {}),
      ...(from ? { from } : {}),
    });
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; blob?: string; text?: string } };

export interface ToolReply {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** A tool of a surface: schema → core call → formatter. */
export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: S;
  readonly output?: z.ZodType;
  readonly annotations: ToolAnnotations;
  /** Changes files: hidden and refused under `--read-only`. */
  readonly mutating: boolean;
  /** Talks to GitHub: listed only while GitHub can be used (`--github-tools`). */
  readonly needsGitHub?: boolean;
  handler(args: z.infer<S>, ctx: ToolContext): Promise<ToolReply>;
}

/** Lets a list of differently-typed tools live in one array. */
// biome-ignore lint/suspicious/noExplicitAny: the registry erases each tool's own argument type
export type AnyToolDef = ToolDef<any>;

/**
 * A mutating tool's structured reply may also name its change in the undo journal (the runner adds it), so
 * its output schema says so.
 */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef<S> {
  if (!def.mutating || !def.output || !("extend" in def.output)) return def;
  const output = (def.output as z.ZodObject).extend({
    changeId: z.string().optional().describe("this call's change in the undo journal (undo_change)"),
    undoable: z.boolean().optional().describe("false: the change is larger than the journal's cap"),
  });
  return { ...def, output };
}

/** A text reply whose structuredContent carries the same text as `content` (the official shape). */
export function textReply(text: string, extra: Record<string, unknown> = {}): ToolReply {
  return { content: [{ type: "text", text }], structuredContent: { content: text, ...extra } };
}

/** The optional `encoding` parameter of text reads and edits (both surfaces): for files that are not UTF-8. */
export const encodingParam = z.string().optional().describe("if not UTF-8, e.g. latin1, gbk");

/** The encoding a call reads or edits a file that is not UTF-8 in: its own, else `--default-encoding`. */
export const encodingFor = (ctx: ToolContext, named: string | undefined): string | undefined =>
  named ?? ctx.config.defaultEncoding;
