/**
 * Applying unified diffs (one file or many, as `git diff` writes them: new, deleted and renamed files
 * included) all-or-nothing: every hunk of every file is located and applied in memory first; any hunk
 * that does not apply fails the whole patch with one message listing each failing hunk; only then are
 * the files changed, through `commitChanges`.
 *
 * Locating a hunk: its old lines (context and removals) are searched nearest the line its header names,
 * never before the previous hunk. Line endings never matter (an LF patch applies to a CRLF file and the
 * file keeps its endings and BOM). When the exact lines are not found, trailing whitespace is ignored;
 * then up to `fuzz` context lines at each end may be ignored (GNU patch's fuzz factor).
 */
import { parsePatch, type StructuredPatch, type StructuredPatchHunk } from "diff";
import { ToolError, ToolErrorGroup } from "../errors.js";
import { readSnapshot, type Snapshot } from "../mutate/snapshot.js";
import type { Change } from "../mutate/transaction.js";
import { decodeForEdit, encodeText } from "../text/decode.js";
import { docLines, parseDoc, printLines } from "../text/document.js";
import type { Line } from "../text/lines.js";
import type { ResolvedPath } from "../workspace.js";
import { clip, nearestRegion } from "./closest.js";

export const DEFAULT_FUZZ = 2;
export const MAX_FUZZ = 3;

export interface PatchPlanOptions {
  /** Resolves a path named in the patch (relative to where the patch applies) for writing. */
  resolve(patchPath: string): Promise<ResolvedPath>;
  /** Context lines that may be ignored at each end of a hunk (0–3). */
  fuzz?: number;
  /** Leading path components to strip: default 1 for git diffs (a/ b/) and for `a/x` / `b/x` pairs. */
  strip?: number;
  /** Largest file the patch may rewrite. */
  maxBytes?: number;
  /** The encoding of patched files that are not UTF-8 (decode.ts). */
  encoding?: string;
}

export interface PatchFileResult {
  action: "modify" | "create" | "delete" | "rename";
  /** The path as named in the patch (the new name for a rename). */
  path: string;
  /** The old name of a renamed file. */
  from?: string;
  hunks: number;
  added: number;
  removed: number;
  /** Hunks that applied away from their header's line or with fuzz. */
  notes: string[];
}

export interface PatchPlan {
  files: PatchFileResult[];
  changes: Change[];
  /** Per file: the old and new text, for a dry-run diff. */
  texts: { path: string; before: string; after: string }[];
}

interface Located {
  at: number;
  /** Context lines ignored at the start and at the end. */
  skipStart: number;
  skipEnd: number;
  loose: boolean;
}

/** Parses a patch and computes every change it makes, without writing anything. */
export async function planPatch(patchText: string, opts: PatchPlanOptions): Promise<PatchPlan> {
  const fuzz = opts.fuzz ?? DEFAULT_FUZZ;
  if (!Number.isInteger(fuzz) || fuzz < 0 || fuzz > MAX_FUZZ)
    throw new ToolError("invalid", {
      reason: "out_of_range",
      parameter: "fuzz",
      limit: MAX_FUZZ,
      actual: fuzz,
    });
  let parsed: StructuredPatch[];
  try {
    parsed = parsePatch(patchText.replace(/\r\n/g, "\n"));
  } catch (err) {
    throw new ToolError("invalid", { reason: "patch_parse", cause: (err as Error).message });
  }
  parsed = parsed.filter(
    (p) =>
      p.hunks.length > 0 ||
      p.isRename ||
      p.isCreate ||
      p.isDelete ||
      p.isBinary ||
      (p.oldMode !== undefined && p.newMode !== undefined && p.oldMode !== p.newMode),
  );
  if (parsed.length === 0) throw new ToolError("invalid", { reason: "patch_empty" });

  const errors: ToolError[] = [];
  const plan: PatchPlan = { files: [], changes: [], texts: [] };
  for (const p of parsed) {
    try {
      await planFile(p, fuzz, opts, plan, errors);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      errors.push(err);
    }
  }
  // Each file's error kept as it is (the runner words each one); the list is the patch's answer.
  if (errors.length > 0)
    throw new ToolErrorGroup(
      errors,
      (msgs) => `The patch was not applied (nothing was changed):\n${msgs.map((e) => `- ${e}`).join("\n")}`,
      "conflict",
    );
  return plan;
}

function stripPath(name: string | undefined, strip: number): string | undefined {
  if (name === undefined || name === "/dev/null") return undefined;
  let n = name.replace(/\t.*$/, "");
  for (let i = 0; i < strip; i++) {
    const slash = n.indexOf("/");
    if (slash === -1) break;
    n = n.slice(slash + 1);
  }
  return n;
}

function stripCount(p: StructuredPatch, opts: PatchPlanOptions): number {
  if (opts.strip !== undefined) return opts.strip;
  if (p.isGit) return 1;
  const o = p.oldFileName ?? "";
  const n = p.newFileName ?? "";
  const prefixed = (s: string, pre: string) => s === "/dev/null" || s.startsWith(pre);
  return prefixed(o, "a/") && prefixed(n, "b/") ? 1 : 0;
}

/** A file the patch creates: its hunks applied to nothing; refused when the file already exists. */
async function planCreate(
  p: StructuredPatch,
  name: string,
  fuzz: number,
  opts: PatchPlanOptions,
  plan: PatchPlan,
  errors: ToolError[],
): Promise<void> {
  const target = await opts.resolve(name);
  const r = applyHunks("", p.hunks, fuzz, name);
  if (r.errors.length) return void errors.push(...r.errors);
  if (await readSnapshot(target).catch(() => undefined))
    throw new ToolError("exists", { reason: "patch_creates", path: name });
  plan.changes.push({
    kind: "write",
    target,
    data: r.text,
    base: null,
    createParents: true,
    mode: modeOf(p.newMode),
  });
  plan.files.push(fileResult("create", name, r));
  plan.texts.push({ path: name, before: "", after: r.text });
}

async function planFile(
  p: StructuredPatch,
  fuzz: number,
  opts: PatchPlanOptions,
  plan: PatchPlan,
  errors: ToolError[],
): Promise<void> {
  const strip = stripCount(p, opts);
  const oldName = stripPath(p.oldFileName, strip);
  const newName = stripPath(p.newFileName, strip);
  if (p.isBinary) throw new ToolError("invalid", { reason: "patch_binary", path: newName ?? oldName ?? "?" });
  const isCreate = p.isCreate || (oldName === undefined && newName !== undefined);
  const isDelete = p.isDelete || (newName === undefined && oldName !== undefined);
  const isRename = !isCreate && !isDelete && p.isRename === true && oldName !== newName;
  if (!oldName && !newName) throw new ToolError("invalid", { reason: "patch_no_path" });

  if (isCreate) return planCreate(p, newName!, fuzz, opts, plan, errors);

  const source = await opts.resolve(oldName ?? newName!);
  const snap = await readSnapshot(source, { maxBytes: opts.maxBytes });
  if (!snap) throw new ToolError("not_found", { reason: "patch_file", path: oldName ?? newName! });
  // The reads' decode policy: a file that is not text is refused, never rewritten from a lossy decode.
  const { text: before, codec } = await decodeForEdit(snap.data, source.requested, opts.encoding);
  const encoded = (text: string) => encodeText(text, codec, source.requested);
  const r = applyHunks(before, p.hunks, isDelete ? 0 : fuzz, oldName ?? newName!);
  if (r.errors.length) return void errors.push(...r.errors);

  if (isDelete) {
    if (r.text.length > 0)
      throw new ToolError("conflict", { reason: "patch_delete_content", path: newName ?? oldName ?? "?" });
    plan.changes.push({ kind: "delete", target: source, base: snap });
    plan.files.push(fileResult("delete", oldName!, r));
    plan.texts.push({ path: oldName!, before, after: "" });
    return;
  }
  if (isRename) {
    const dest = await opts.resolve(newName!);
    plan.changes.push({
      kind: "write",
      target: dest,
      data: encoded(r.text),
      base: null,
      createParents: true,
      mode: modeOf(p.newMode) ?? snap.mode,
    });
    plan.changes.push({ kind: "delete", target: source, base: snap });
    plan.files.push({ ...fileResult("rename", newName!, r), from: oldName });
    plan.texts.push({ path: oldName!, before, after: "" }, { path: newName!, before: "", after: r.text });
    return;
  }
  const exec = modeOf(p.newMode);
  const setMode =
    p.oldMode !== undefined && p.newMode !== undefined && p.oldMode !== p.newMode
      ? (exec ?? snap.mode & ~0o111)
      : undefined;
  plan.changes.push({
    kind: "write",
    target: source,
    data: encoded(r.text),
    base: snap as Snapshot,
    setMode,
  });
  plan.files.push(fileResult("modify", oldName ?? newName!, r));
  plan.texts.push({ path: oldName ?? newName!, before, after: r.text });
}

function modeOf(gitMode: string | undefined): number | undefined {
  if (!gitMode) return undefined;
  const m = Number.parseInt(gitMode, 8) & 0o777;
  return m & 0o111 ? 0o755 & ~process.umask() : undefined;
}

function fileResult(action: PatchFileResult["action"], p: string, r: HunksApplied): PatchFileResult {
  return { action, path: p, hunks: r.hunks, added: r.added, removed: r.removed, notes: r.notes };
}

export interface HunksApplied {
  text: string;
  hunks: number;
  added: number;
  removed: number;
  notes: string[];
  /** The hunks that were not found, each the error of its file (`patch_hunk`). */
  errors: ToolError[];
}

/**
 * Applies the hunks of one file to its text. Hunks that do not apply are reported in `errors` (all of
 * them, each with where it was looked for and the closest near-miss) and the text is then meaningless.
 */
function applyHunks(
  text: string,
  hunks: readonly StructuredPatchHunk[],
  fuzz: number,
  name: string,
): HunksApplied {
  const doc = parseDoc(text);
  const lines = docLines(doc);
  const out: Line[] = [];
  let cursor = 0; // next unconsumed line of the original
  let offset = 0; // how far hunks so far landed from their headers
  const res: HunksApplied = { text: "", hunks: hunks.length, added: 0, removed: 0, notes: [], errors: [] };
  hunks.forEach((h, i) => {
    const parsed = parseHunk(h);
    const expected = Math.max(cursor, h.oldStart - 1 + offset);
    const found = locate(lines, parsed, expected, cursor, fuzz);
    if (!found) {
      const hunk = { ...hunkOf(h, i), ...missOf(lines, parsed, expected, cursor) };
      res.errors.push(new ToolError("conflict", { reason: "patch_hunk", path: name, hunk }));
      return;
    }
    const { at, skipStart, skipEnd } = found;
    const body = parsed.lines.slice(skipStart, parsed.lines.length - skipEnd);
    const start = at;
    if (at - skipStart !== h.oldStart - 1 || skipStart || skipEnd || found.loose) {
      const bits: string[] = [];
      if (at - skipStart !== h.oldStart - 1)
        bits.push(`at line ${at - skipStart + 1} (offset ${at - skipStart - (h.oldStart - 1)})`);
      if (skipStart || skipEnd) bits.push(`fuzz ${Math.max(skipStart, skipEnd)}`);
      if (found.loose) bits.push("ignoring trailing whitespace");
      res.notes.push(`hunk #${i + 1} applied ${bits.join(", ")}`);
    }
    for (let k = cursor; k < start; k++) out.push(lines[k]!);
    let k = start;
    for (const l of body) {
      if (l.op === " ") out.push(lines[k++]!);
      else if (l.op === "-") {
        k++;
        res.removed++;
      } else {
        out.push({ text: l.text, eol: doc.eol });
        res.added++;
      }
    }
    cursor = k;
    offset = at - skipStart - (h.oldStart - 1);
    if (cursor === lines.length && out.length > 0) {
      // The hunk reaches the end of the file: its new side decides the final newline.
      const last = out[out.length - 1]!;
      out[out.length - 1] = { text: last.text, eol: parsed.newNoNewline ? "" : last.eol || doc.eol };
    }
  });
  for (let k = cursor; k < lines.length; k++) out.push(lines[k]!);
  res.text = printLines(out, doc.bom);
  return res;
}

interface HunkLine {
  op: " " | "-" | "+";
  text: string;
}

interface ParsedHunk {
  lines: HunkLine[];
  /** The old side (context and removals), for matching. */
  old: string[];
  newNoNewline: boolean;
  leadContext: number;
  trailContext: number;
}

function parseHunk(h: StructuredPatchHunk): ParsedHunk {
  const lines: HunkLine[] = [];
  let newNoNewline = false;
  for (const raw of h.lines) {
    const op = raw[0];
    if (op === "\\") {
      const prev = lines[lines.length - 1];
      if (prev && prev.op !== "-") newNoNewline = true;
      continue;
    }
    if (op !== " " && op !== "-" && op !== "+") continue;
    lines.push({ op, text: raw.slice(1).replace(/\r$/, "") });
  }
  // A "\ No newline" after a removed line that is followed by added lines concerns the old side only.
  let lead = 0;
  while (lead < lines.length && lines[lead]!.op === " ") lead++;
  let trail = 0;
  while (trail < lines.length - lead && lines[lines.length - 1 - trail]!.op === " ") trail++;
  return {
    lines,
    old: lines.filter((l) => l.op !== "+").map((l) => l.text),
    newNoNewline,
    leadContext: lead,
    trailContext: trail,
  };
}

function matchesAt(file: readonly Line[], old: readonly string[], at: number, loose: boolean): boolean {
  if (at < 0 || at + old.length > file.length) return false;
  for (let j = 0; j < old.length; j++) {
    const a = file[at + j]!.text;
    const b = old[j]!;
    if (a !== b && !(loose && a.trimEnd() === b.trimEnd())) return false;
  }
  return true;
}

/** Nearest position at or after `min` where the (possibly trimmed) old side matches. */
function locate(
  file: readonly Line[],
  h: ParsedHunk,
  expected: number,
  min: number,
  fuzz: number,
): Located | undefined {
  for (let f = 0; f <= fuzz; f++) {
    const skipStart = Math.min(f, h.leadContext);
    const skipEnd = Math.min(f, h.trailContext);
    if (f > 0 && skipStart === 0 && skipEnd === 0) break;
    const old = h.old.slice(skipStart, h.old.length - skipEnd);
    for (const loose of [false, true]) {
      const at = nearest(file, old, expected + skipStart, min, loose);
      if (at !== undefined) return { at, skipStart, skipEnd, loose };
    }
  }
  return undefined;
}

function nearest(
  file: readonly Line[],
  old: readonly string[],
  expected: number,
  min: number,
  loose: boolean,
): number | undefined {
  if (old.length === 0) return Math.min(Math.max(expected, min), file.length);
  const last = file.length - old.length;
  for (let d = 0; expected - d >= min || expected + d <= last; d++) {
    if (expected + d <= last && expected + d >= min && matchesAt(file, old, expected + d, loose))
      return expected + d;
    if (d > 0 && expected - d >= min && expected - d <= last && matchesAt(file, old, expected - d, loose))
      return expected - d;
  }
  return undefined;
}

/** Which hunk (1-based) and its header's numbers. */
function hunkOf(h: StructuredPatchHunk, i: number) {
  return {
    index: i + 1,
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
  };
}

/** Why a hunk did not apply: where it was looked for and the best partial match, line by line. */
function missOf(file: readonly Line[], h: ParsedHunk, expected: number, min: number) {
  const miss = { lines: h.old.length, near: expected, fileLines: file.length };
  const texts = file.map((l) => l.text);
  const near = nearestRegion(texts, h.old, { expected, min });
  if (!near) return miss;
  const j = near.firstDiff;
  const differs =
    j >= 0 ? { line: near.at + j, expected: clip(h.old[j]!), found: clip(texts[near.at + j]!) } : undefined;
  return { ...miss, closest: { at: near.at, equal: near.equal, ...(differs ? { differs } : {}) } };
}
