/**
 * Undo of one recorded change (change-log.ts): every path it touched is put back as it was, newest step
 * first, through the same operations as every write (resolved with write intent, so never outside the
 * change's own root, never into a read-only root, never into `.git`; pinned parents; the transaction for
 * files). The undo runs inside its own tool call's change, so it is itself a change that can be undone, and
 * whatever a forced undo replaces is kept in the journal like any other pre-image.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { isErrno, ToolError } from "../errors.js";
import { sha256Of } from "../fs/hash.js";
import { ensureParentDirs, makeDirsPinned } from "../fs/mkdirs.js";
import { tempPathBeside, withPinnedParent } from "../fs/safe-open.js";
import {
  type ChangeBody,
  type ChangeEntry,
  type ChangeLog,
  type EntryState,
  type MoveEntry,
  shapeOf,
} from "../journal/change-log.js";
import { lfPieces } from "../text/lines.js";
import type { ResolvedPath, Root, Workspace } from "../workspace.js";
import { moveEntry } from "./move.js";
import { moveNoReplace } from "./move-no-replace.js";
import { textForDiff } from "./precondition.js";
import { deleteDirectory, deleteFile } from "./remove.js";
import { commitChanges } from "./transaction.js";

export interface UndoOptions {
  /** Only say what would be done (and what changed since). @default false */
  dryRun?: boolean;
  /** Undo even over what changed since the change (it is kept in the journal). @default false */
  force?: boolean;
  /** How the caller shows a path of the change (a refusal lists them). @default the root-relative path */
  show?: (root: string, rel: string) => string;
}

export interface UndoStep {
  /** The root's real path and the path inside it. */
  root: string;
  rel: string;
  action: string;
  /** What changed at this path since the change (with a diff where it is text). */
  changed?: string;
}

export interface UndoResult {
  id: string;
  tool: string;
  steps: UndoStep[];
  /** Paths changed since the change (undone anyway with `force`). */
  conflicts: number;
  applied: boolean;
}

const DIFF_LINES = 40;

/** The writable roots of this workspace whose journals a client may see and undo. */
export function journaledRoots(ws: Workspace): Root[] {
  return ws.roots.filter((r) => r.mode === "rw" && r.kind !== "reference");
}

export async function undoChange(
  ws: Workspace,
  log: ChangeLog,
  id: string,
  opts: UndoOptions = {},
): Promise<UndoResult> {
  const roots = journaledRoots(ws);
  const found = await log.find(roots, id.trim());
  if (found === undefined) throw new ToolError("not_found", { reason: "change", change: id });
  if (found === "tampered") throw new ToolError("denied", { reason: "journal_hash", change: id });
  const { body, base, undoneBy } = found;
  if (!body.undoable) throw new ToolError("conflict", { reason: "not_undoable", change: id });
  if (undoneBy && !opts.force)
    throw new ToolError("conflict", { reason: "already_undone", change: id, undoneBy });
  const change = ws.change;
  // Before planning resolves any path: the journal may drop the change undone to make room for its undo.
  if (change) change.undoOf = id;
  const plan = await planUndo(ws, roots, body, base);
  const conflicts = plan.filter((p) => p.step.changed).length;
  const result = (applied: boolean): UndoResult => ({
    id,
    tool: body.tool,
    steps: plan.map((p) => p.step),
    conflicts,
    applied,
  });
  if (opts.dryRun) return result(false);
  if (conflicts > 0 && !opts.force) throw changedSince(result(false), opts.show);
  for (const p of plan) await p.apply();
  if (change) await log.markUndone(base, change.id);
  return result(true);
}

/** An undo refused because paths changed since the change: its steps, paths as the caller shows them. */
function changedSince(r: UndoResult, show = (_root: string, rel: string) => rel): ToolError {
  const steps = r.steps.map((s) => ({
    path: show(s.root, s.rel),
    action: s.action,
    ...(s.changed ? { changed: s.changed } : {}),
  }));
  return new ToolError("conflict", { reason: "undo_changed", change: r.id, actual: r.conflicts, steps });
}

interface Planned {
  step: UndoStep;
  apply(): Promise<void>;
}

/**
 * Checks every pre-image and every path's current state first; returns the steps, newest first. The
 * change's pre-images are `<base>.<blob>` (journal-names.ts).
 */
async function planUndo(ws: Workspace, roots: Root[], body: ChangeBody, base: string): Promise<Planned[]> {
  const rootOf = (real: string): Root => {
    const r = roots.find((x) => x.real === real);
    if (!r) throw new ToolError("denied", { reason: "change_root_gone", change: body.id });
    return r;
  };
  const resolve = async (rootReal: string, rel: string): Promise<ResolvedPath> => {
    const root = rootOf(rootReal);
    if (!safeRelative(rel)) throw tampered(body.id);
    const real = path.join(root.real, ...rel.split("/"));
    const t = await ws.resolveEntry(real, { intent: "write" });
    if (t.root.real !== root.real || t.real !== real) throw tampered(body.id);
    return { ...t, requested: rel };
  };
  // Only the newest step at a path says what must be there now.
  const latest = new Map<string, number>();
  body.entries.forEach((e, i) => {
    for (const k of keysOf(e)) latest.set(k, i);
  });
  const out: Planned[] = [];
  for (let i = body.entries.length - 1; i >= 0; i--) {
    const e = body.entries[i]!;
    const isLatest = keysOf(e).every((k) => latest.get(k) === i);
    if (e.op === "move") out.push(await planMove(e, resolve, isLatest));
    else {
      const t = await resolve(e.root, e.rel);
      await checkPreImage(e.pre, base, body.id);
      const changed = isLatest ? await differs(t, e.post, e.pre, base) : undefined;
      out.push({
        step: { root: e.root, rel: e.rel, action: describe(e.pre, e.post), ...(changed ? { changed } : {}) },
        apply: () => restore(t, e.pre, e.post, base),
      });
    }
  }
  return out;
}

function keysOf(e: ChangeEntry): string[] {
  return e.op === "move" ? [`${e.root}\0${e.from}`, `${e.toRoot}\0${e.to}`] : [`${e.root}\0${e.rel}`];
}

async function planMove(
  e: MoveEntry,
  resolve: (root: string, rel: string) => Promise<ResolvedPath>,
  isLatest: boolean,
): Promise<Planned> {
  const from = await resolve(e.root, e.from);
  const to = await resolve(e.toRoot, e.to);
  let changed: string | undefined;
  if (isLatest) {
    const st = await fs.lstat(to.real).catch(() => undefined);
    const same =
      st &&
      st.dev === e.id.dev &&
      st.ino === e.id.ino &&
      (e.kind === "dir" || (st.size === e.id.size && st.mtimeMs === e.id.mtimeMs));
    const respelled = e.root === e.toRoot && e.from.toLowerCase() === e.to.toLowerCase();
    if (!st) changed = "it is no longer there";
    else if (!same) changed = "it was changed or replaced after it was moved";
    else if (!respelled && (await fs.lstat(from.real).catch(() => undefined)))
      changed = `something now exists at ${e.from}, where it came from`;
  }
  return {
    step: { root: e.toRoot, rel: e.to, action: `move back to ${e.from}`, ...(changed ? { changed } : {}) },
    apply: async () => {
      if (e.method === "git") {
        await moveEntry(to, from);
        return;
      }
      await ensureParentDirs(from);
      await moveNoReplace(to, from);
    },
  };
}

function describe(pre: EntryState | null, post: EntryState | null): string {
  if (!pre)
    return post?.type === "dir" ? "remove the directory it made (if still empty)" : "remove (it was created)";
  switch (pre.type) {
    case "file":
      return `${post ? "restore" : "recreate"} the file (${pre.size} bytes, mode ${pre.mode.toString(8)})`;
    case "link":
      return `recreate the symlink -> ${pre.target}`;
    case "dir":
      return "recreate the directory";
    case "tree":
      return `recreate the directory tree (${pre.size} bytes)`;
  }
}

/** A pre-image the journal holds must be the one recorded (a damaged or edited blob is refused). */
async function checkPreImage(pre: EntryState | null, base: string, id: string): Promise<void> {
  if (!pre || (pre.type !== "file" && pre.type !== "tree")) return;
  if (!pre.blob || !/^\d+$/.test(pre.blob)) throw tampered(id);
  const p = `${base}.${pre.blob}`;
  if (pre.type === "file") {
    if (pre.held) {
      const st = await fs.lstat(p).catch(() => undefined);
      const h = pre.held;
      if (!st?.isFile() || st.ino !== h.ino || st.size !== h.size || st.mtimeMs !== h.mtimeMs)
        throw tampered(id);
      return;
    }
    const data = await fs.readFile(p).catch(() => undefined);
    if (!data || sha256Of(data) !== pre.sha256) throw tampered(id);
    return;
  }
  const st = await fs.lstat(p).catch(() => undefined);
  if (!st?.isDirectory() || (await shapeOf(p)).shape !== pre.shape) throw tampered(id);
}

function tampered(id: string): ToolError {
  return new ToolError("denied", { reason: "journal_record", change: id });
}

/** How the path differs from what the change left there (undefined: it is as the change left it). */
async function differs(
  t: ResolvedPath,
  post: EntryState | null,
  pre: EntryState | null,
  base: string,
): Promise<string | undefined> {
  const st = await fs.lstat(t.real).catch((err) => {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return undefined;
    throw err;
  });
  if (!post) return st ? "something was created there after the change" : undefined;
  if (!st) return "it was removed after the change";
  switch (post.type) {
    case "file": {
      if (!st.isFile()) return "it is no longer a regular file";
      const now = await fs.readFile(t.real);
      if (sha256Of(now) === post.sha256) return undefined;
      const restored =
        pre?.type === "file" && pre.blob ? await fs.readFile(`${base}.${pre.blob}`) : undefined;
      const a = textForDiff(now);
      const b = restored ? textForDiff(restored) : "";
      if (a === undefined || b === undefined) return "its content changed after the change";
      const diff = createTwoFilesPatch(`${t.requested} (now)`, `${t.requested} (after undo)`, a, b, "", "", {
        context: 2,
      });
      return `its content changed after the change:\n${cutDiff(diff.replace(/^={3,}\n/m, ""))}`;
    }
    case "link":
      return st.isSymbolicLink() && (await fs.readlink(t.real)) === post.target
        ? undefined
        : "the symlink was changed after the change";
    case "dir":
      return st.isDirectory() ? undefined : "it is no longer a directory";
    case "tree":
      if (!st.isDirectory()) return "it is no longer a directory";
      return (await shapeOf(t.real)).shape === post.shape
        ? undefined
        : "files in it changed after the change";
  }
}

function cutDiff(diff: string): string {
  const lines = lfPieces(diff.trimEnd());
  if (lines.length <= DIFF_LINES) return lines.join("\n");
  return `${lines.slice(0, DIFF_LINES).join("\n")}\n… (${lines.length - DIFF_LINES} more diff lines)`;
}

/** Makes the path what `pre` says, whatever is there now (all through recorded operations). */
async function restore(
  t: ResolvedPath,
  pre: EntryState | null,
  post: EntryState | null,
  base: string,
): Promise<void> {
  const st = await fs.lstat(t.real).catch(() => undefined);
  if (!pre) {
    if (!st) return;
    if (post?.type === "dir" && st.isDirectory()) {
      // A directory the change made: removed only while empty (what was put in it later stays).
      await deleteDirectory(t, false).catch((err) => {
        if (!(err instanceof ToolError && err.kind === "conflict")) throw err;
      });
      return;
    }
    await removeEntry(t, st);
    return;
  }
  if (pre.type === "file" && st?.isFile()) {
    // Replaced in one rename by the transaction, like any write.
    const data = await fs.readFile(`${base}.${pre.blob!}`);
    await commitChanges([{ kind: "write", target: t, data, setMode: pre.mode }]);
    return;
  }
  if (st) await removeEntry(t, st);
  await ensureParentDirs(t);
  switch (pre.type) {
    case "file": {
      const data = await fs.readFile(`${base}.${pre.blob!}`);
      await commitChanges([
        { kind: "write", target: t, data, base: null, mode: pre.mode, setMode: pre.mode },
      ]);
      return;
    }
    case "link":
      await withPinnedParent(t, (d, name) => fs.symlink(pre.target, d.at(name)));
      t.change?.created(t.root, t.real, pre);
      return;
    case "dir":
      await makeDirsPinned(t.real, t, pre.mode);
      return;
    case "tree":
      await placeTree(t, `${base}.${pre.blob!}`);
      t.change?.created(t.root, t.real, {
        type: "tree",
        mode: pre.mode,
        shape: pre.shape,
        size: pre.size,
      });
  }
}

async function removeEntry(t: ResolvedPath, st: import("node:fs").Stats): Promise<void> {
  if (st.isDirectory()) await deleteDirectory(t, true);
  else await deleteFile(t);
}

/**
 * Puts a kept tree back at `t` (nothing there): one rename out of the journal on the same device; across
 * devices a copy under a hidden name beside it, renamed into place.
 */
async function placeTree(t: ResolvedPath, blob: string): Promise<void> {
  const absent = async (d: { at(n: string): string }, name: string) => {
    if (await fs.lstat(d.at(name)).catch(() => undefined))
      throw new ToolError("conflict", { reason: "appeared_meanwhile", path: t.requested });
  };
  try {
    await withPinnedParent(t, async (d, name) => {
      await absent(d, name);
      await fs.rename(blob, d.at(name));
    });
    return;
  } catch (err) {
    if (!isErrno(err, "EXDEV")) throw err;
  }
  const hidden = tempPathBeside(t.real);
  await fs.cp(blob, hidden, {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    errorOnExist: true,
    force: false,
  });
  await withPinnedParent(t, async (d, name) => {
    await absent(d, name);
    await fs.rename(d.at(path.basename(hidden)), d.at(name));
  });
}

/** A root-relative path with no way out of the root. */
function safeRelative(rel: unknown): rel is string {
  if (typeof rel !== "string" || rel === "" || rel.includes("\0") || rel.includes("\\")) return false;
  return rel.split("/").every((s) => s !== "" && s !== "." && s !== "..") && !path.isAbsolute(rel);
}
