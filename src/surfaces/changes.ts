/**
 * What both surfaces' list_changes and undo_change share: the query of the undo journal and the reply text.
 * A surface gives its parameter names and how it shows a path (absolute on the filesystem surface,
 * project-relative on the workspace surface).
 */
import path from "node:path";
import { z } from "zod";
import { ToolError } from "../core/errors.js";
import type { ChangeSummary } from "../core/journal/change-log.js";
import { journaledRoots, type UndoResult, undoChange } from "../core/mutate/undo.js";
import { escapeName, printable } from "../core/paths.js";
import { namesOf } from "../core/workspace.js";
import type { ToolContext } from "./tool.js";
import { undoStepLine } from "./wording.js";

export const DEFAULT_CHANGES_SHOWN = 20;
export const MAX_CHANGES_SHOWN = 200;

/** list_changes' `limit`, the same on both surfaces. */
export const changesLimit = z.number().int().min(1).max(MAX_CHANGES_SHOWN).optional();

/** How a surface shows a root-relative path of a change. */
export type ShowPath = (ctx: ToolContext, rootReal: string, rel: string) => string;

export interface ListedChange {
  id: string;
  time: string;
  tool: string;
  paths: string[];
  bytes: number;
  undoable: boolean;
  reason?: string;
}

function journalOf(ctx: ToolContext) {
  const journal = ctx.journal?.journal;
  if (!journal) throw new ToolError("invalid", { reason: "journal_off" });
  return journal.changes;
}

function deniedNow(ctx: ToolContext, rootReal: string, rel: string): boolean {
  const root = ctx.ws.rootOf(rootReal);
  return root?.deny?.denies(rel, namesOf(root).foldsCase) === true;
}

export async function listChanges(
  ctx: ToolContext,
  args: { path?: string; limit?: number },
  show: ShowPath,
): Promise<{ text: string; changes: ListedChange[] }> {
  const log = journalOf(ctx);
  const roots = journaledRoots(ctx.ws);
  let under: { real: string; names: ReturnType<typeof namesOf> } | undefined;
  if (args.path !== undefined) {
    const t = await ctx.ws.resolveEntry(args.path, { intent: "read" });
    // NFC on both sides: an entry gone since (nothing left to look its stored name up by) is found by any form.
    under = { real: t.real.normalize("NFC"), names: namesOf(t.root) };
  }
  const touches = (s: ChangeSummary) =>
    !under ||
    s.paths.some((p) =>
      under.names.isAtOrBelow(path.join(p.root, ...p.rel.split("/")).normalize("NFC"), under.real),
    );
  const limit = Math.min(args.limit ?? DEFAULT_CHANGES_SHOWN, MAX_CHANGES_SHOWN);
  const all = (await log.list(roots)).map((c) => c.summary).filter(touches);
  const changes: ListedChange[] = all.slice(0, limit).map((s) => ({
    id: s.id,
    time: s.time,
    tool: s.tool,
    // A change recorded before a --deny rule was set does not name what the rule now denies.
    paths: s.paths.filter((p) => !deniedNow(ctx, p.root, p.rel)).map((p) => show(ctx, p.root, p.rel)),
    bytes: s.size,
    undoable: s.undoable,
    ...(s.reason ? { reason: s.reason } : {}),
  }));
  if (changes.length === 0)
    return {
      text: args.path ? `No recorded changes touched ${printable(args.path)}` : "No recorded changes",
      changes,
    };
  const blocks = changes.map((c) => {
    const state = c.undoable ? "undoable" : `not undoable: ${c.reason}`;
    const shown = c.paths.slice(0, 10).map((p) => `  ${escapeName(p)}`);
    if (c.paths.length > 10) shown.push(`  ... and ${c.paths.length - 10} more`);
    return `${c.id}  ${c.time}  ${c.tool}  ${c.bytes} bytes kept  ${state}\n${shown.join("\n")}`;
  });
  const head = `${changes.length} change(s), newest first (undo_change with an id):`;
  ctx.budget.take(`${head}\n`);
  const { kept, note } = ctx.budget.fitLines(
    blocks,
    (k) =>
      `(${all.length - k} older changes not shown: ${k < changes.length ? "pass path to narrow" : "raise limit"})`,
    all.length > changes.length,
  );
  const text = [head, ...blocks.slice(0, kept), ...(note ? [note] : [])].join("\n");
  return { text, changes: changes.slice(0, kept) };
}

function stepLines(ctx: ToolContext, result: UndoResult, show: ShowPath): string[] {
  return result.steps.map((s) => undoStepLine({ ...s, path: show(ctx, s.root, s.rel) }));
}

export async function undo(
  ctx: ToolContext,
  args: { id: string; dryRun?: boolean; force?: boolean },
  show: ShowPath,
): Promise<{ text: string; result: UndoResult }> {
  const log = journalOf(ctx);
  // A refusal for paths changed since lists them as this surface shows paths (worded in surfaces/wording.ts).
  const result = await undoChange(ctx.ws, log, args.id, {
    dryRun: args.dryRun,
    force: args.force,
    show: (root, rel) => show(ctx, root, rel),
  });
  if (result.applied)
    for (const s of result.steps)
      ctx.recordMutation({ op: "undo", path: show(ctx, s.root, s.rel), bytes: 0 });
  const steps = stepLines(ctx, result, show);
  const head = result.applied
    ? `Undid change ${result.id} (${result.tool}):`
    : `Dry run: undoing change ${result.id} (${result.tool}) would:`;
  const note =
    !result.applied && result.conflicts > 0
      ? `\n${result.conflicts} path(s) changed since the change: undo_change refuses unless forced`
      : "";
  // A change of many paths: the steps are cut to the budget, the outcome stays whole (it comes first).
  const more = `\n(more steps not shown: list_changes shows the change's paths)${note}`;
  return { text: ctx.budget.fit(`${head}\n${steps.join("\n")}${note}`, more, true).text, result };
}
