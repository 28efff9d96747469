import { type EditDetail, ToolError } from "../errors.js";
import { parseDoc, printDoc, spliceEndings, type TextFormat } from "../text/document.js";
import { lfPieces } from "../text/lines.js";
import { nearestRegion, nearMissDiff } from "./closest.js";

/**
 * The edit engine: pure text in, text out (LF line endings, no BOM; `editKeepingEndings` for a file's text). Shared by both
 * surfaces. Nothing is written here, so a failed edit anywhere leaves the file untouched (all-or-nothing).
 */

export interface Edit {
  oldText: string;
  newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean;
}

/** `tolerant`: exact substring first, then a whitespace-tolerant whole-line match; `exact`: substring only. */
export type MatchMode = "tolerant" | "exact";

export interface EditOptions {
  match?: MatchMode;
  /**
   * true (default): each edit applies to the result of the previous one. false: every edit is located in
   * the original text; overlapping edits are an error.
   */
  sequential?: boolean;
  /** How the calling surface names the parameters, for error messages. */
  names?: { oldText?: string; replaceAll?: string };
  /** oldText found more than once without replaceAll: an ambiguity `error` (default), or replace the `first`. */
  multiple?: "error" | "first";
  /**
   * Skip an edit that is already applied (mcp-workspace's rules): oldText is absent but newText present, or
   * the text at oldText's first occurrence already reads newText (newText extends oldText).
   */
  detectApplied?: boolean;
  /** An empty oldText: an `error` (default), or `prepend` newText to the text. */
  emptyOldText?: "error" | "prepend";
  /** Told of every change as it is made: the text before it and the spans it replaces, sorted. */
  onSplice?: (text: string, spans: readonly Span[]) => void;
}

export interface EditMatch {
  /** Position of the edit in the list (0-based). */
  index: number;
  /** `skipped`: already applied (detectApplied), nothing replaced. */
  kind: "exact" | "tolerant" | "skipped";
  /** 1-based line numbers where each replaced occurrence started (skipped: where newText stands). */
  lines: number[];
  /** Skipped: whether oldText was found (its first occurrence already reads newText) or not at all. */
  oldFound?: boolean;
  /** The tolerant match re-indented `newText` to the file's indentation. */
  reindented: boolean;
}

export interface EditResult {
  text: string;
  changed: boolean;
  matches: EditMatch[];
}

export type EditFailure = "empty" | "not_found" | "ambiguous" | "overlap";

/** An edit that cannot be made, as data: which edit, why, and what the file holds (worded by the surfaces). */
class EditError extends ToolError {
  constructor(
    readonly reason: EditFailure,
    readonly editIndex: number,
    edit: Omit<EditDetail, "index">,
  ) {
    super(reason === "not_found" ? "not_found" : reason === "empty" ? "invalid" : "conflict", {
      reason: `edit_${reason}`,
      edit: { index: editIndex, ...edit },
    });
    this.name = "EditError";
  }
}

export interface Span {
  start: number;
  end: number;
  replacement: string;
}

interface Located {
  spans: Span[];
  match: EditMatch;
}

const TAB_WIDTH = 4;

function applyEdits(text: string, edits: readonly Edit[], opts: EditOptions = {}): EditResult {
  const sequential = opts.sequential ?? true;
  const matches: EditMatch[] = [];
  let current = text;
  const pending: { span: Span; index: number }[] = [];
  edits.forEach((edit, index) => {
    const located = locate(sequential ? current : text, edit, index, edits.length, opts, sequential);
    matches.push(located.match);
    if (sequential) current = splice(current, located.spans, opts.onSplice);
    else for (const span of located.spans) pending.push({ span, index });
  });
  if (!sequential) {
    pending.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    for (let i = 1; i < pending.length; i++) {
      const prev = pending[i - 1]!;
      const cur = pending[i]!;
      if (cur.span.start < prev.span.end || (cur.span.start === prev.span.start && cur.index !== prev.index))
        throw new EditError("overlap", cur.index, {
          ...editNames(edits, cur.index, opts),
          lines: [lineAt(text, cur.span.start)],
          overlapsWith: prev.index,
        });
    }
    current = splice(
      text,
      pending.map((p) => p.span),
      opts.onSplice,
    );
  }
  return { text: current, changed: current !== text, matches };
}

/**
 * Edits text as a file holds it: the engine works on its LF body, and only the bytes of the lines an edit
 * targets change. Every other line keeps its own ending; a replaced line takes the ending of the line it
 * replaces; a line an edit adds takes the file's dominant ending. The BOM is kept.
 */
export function editKeepingEndings(
  text: string,
  edits: readonly Edit[],
  opts: EditOptions = {},
): { body: string; result: EditResult; text: string; format: TextFormat } {
  const doc = parseDoc(text);
  let eols = doc.eols;
  const result = applyEdits(doc.body, edits, {
    ...opts,
    onSplice: (before, spans) => {
      eols = spliceEndings(before, eols, spans, doc.eol);
    },
  });
  return {
    body: doc.body,
    result,
    text: result.changed ? printDoc(doc, result.text, eols) : text,
    format: { eol: doc.eol, bom: doc.bom, mixed: doc.mixed },
  };
}

/** Replaces non-overlapping spans (sorted or not) in one pass. */
function splice(text: string, spans: readonly Span[], onSplice?: EditOptions["onSplice"]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  if (sorted.length > 0) onSplice?.(text, sorted);
  let out = "";
  let pos = 0;
  for (const s of sorted) {
    out += text.slice(pos, s.start) + s.replacement;
    pos = s.end;
  }
  return out + text.slice(pos);
}

function locate(
  text: string,
  edit: Edit,
  index: number,
  total: number,
  opts: EditOptions,
  sequential: boolean,
): Located {
  if (edit.oldText === "" && opts.emptyOldText === "prepend")
    return {
      spans: [{ start: 0, end: 0, replacement: normalizeEol(edit.newText) }],
      match: { index, kind: "exact", lines: [1], reindented: false },
    };
  const names = { ...editNames([], index, opts), total, oldText: edit.oldText };
  if (edit.oldText === "") throw new EditError("empty", index, names);
  const oldText = normalizeEol(edit.oldText);
  const newText = normalizeEol(edit.newText);

  const skipped = (at: number, oldFound: boolean): Located => ({
    spans: [],
    match: { index, kind: "skipped", lines: [lineAt(text, at)], reindented: false, oldFound },
  });
  let exact = occurrences(text, oldText, !edit.replaceAll);
  if (exact.length > 0) {
    if (exact.length > 1 && !edit.replaceAll) {
      if (opts.multiple !== "first")
        throw ambiguous(
          names,
          exact.map((p) => lineAt(text, p)),
          index,
          sequential,
        );
      exact = exact.slice(0, 1);
    }
    if (opts.detectApplied && newText.length > oldText.length && text.startsWith(newText, exact[0]!))
      return skipped(exact[0]!, true);
    const lines = exact.map((p) => lineAt(text, p));
    return {
      spans: exact.map((start) => ({ start, end: start + oldText.length, replacement: newText })),
      match: { index, kind: "exact", lines, reindented: false },
    };
  }
  if (opts.detectApplied && newText !== "" && text.includes(newText))
    return skipped(text.indexOf(newText), false);
  if ((opts.match ?? "tolerant") === "tolerant") {
    const tolerant = tolerantLocate(text, oldText, newText, !edit.replaceAll);
    if (tolerant) {
      const lines = tolerant.spans.map((s) => lineAt(text, s.start));
      if (tolerant.spans.length > 1 && !edit.replaceAll) throw ambiguous(names, lines, index, sequential);
      return {
        spans: tolerant.spans,
        match: { index, kind: "tolerant", lines, reindented: tolerant.reindented },
      };
    }
  }
  const doubled = oldText.replace(/\\/g, "\\\\");
  const hint = doubled !== oldText && text.includes(doubled);
  throw new EditError("not_found", index, {
    ...names,
    backslashHint: hint,
    nearest: closestRegion(text, oldText),
  });
}

/** The region of `text` most like `oldText`, as a short diff with its line numbers, or undefined. */
function closestRegion(text: string, oldText: string): string | undefined {
  const want = textLines(oldText);
  const file = lfPieces(text);
  const near = nearestRegion(file, want);
  return near && nearMissDiff(file, want, near);
}

/** The parameter names the call spells (`names`), and which edit of how many. */
function editNames(
  edits: readonly Edit[],
  index: number,
  opts: EditOptions,
): Omit<EditDetail, "index" | "lines"> {
  return {
    total: edits.length,
    oldText: edits[index]?.oldText ?? "",
    oldName: opts.names?.oldText ?? "oldText",
    replaceAllName: opts.names?.replaceAll ?? "replaceAll",
  };
}

function ambiguous(
  names: Omit<EditDetail, "index" | "lines">,
  lines: number[],
  index: number,
  sequential: boolean,
): EditError {
  return new EditError("ambiguous", index, { ...names, lines, countedAfter: sequential && index > 0 });
}

function normalizeEol(s: string): string {
  return s.includes("\r\n") ? s.replace(/\r\n/g, "\n") : s;
}

/**
 * Start offsets of `needle` in `hay`. `overlapping` finds every start (used to detect ambiguity: "aa" in
 * "aaa" is two matches); otherwise non-overlapping starts, for replace-all.
 */
function occurrences(hay: string, needle: string, overlapping: boolean): number[] {
  const out: number[] = [];
  for (
    let i = hay.indexOf(needle);
    i !== -1;
    i = hay.indexOf(needle, i + (overlapping ? 1 : needle.length))
  ) {
    out.push(i);
    if (overlapping && out.length > 1000) break;
  }
  return out;
}

/** 1-based line number of a character offset. */
function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Splits text into lines, dropping the empty piece after a final newline. */
function textLines(s: string): string[] {
  if (s === "") return [];
  const lines = lfPieces(s);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Whole-line match ignoring leading/trailing whitespace on each line. The replacement is re-indented so
 * that nested code keeps its depth: the indentation the client used in `oldText` is mapped onto the file's
 * (a shift, or a scale when the indent unit differs), and the same mapping is applied to `newText`.
 */
function tolerantLocate(
  text: string,
  oldText: string,
  newText: string,
  overlapping: boolean,
): { spans: Span[]; reindented: boolean } | undefined {
  const oldLines = textLines(oldText);
  if (oldLines.length === 0 || oldLines.every((l) => l.trim() === "")) return undefined;
  const want = oldLines.map((l) => l.trim());
  const fileLines = lfPieces(text);
  const starts: number[] = [];
  const offsets: number[] = [];
  let off = 0;
  for (const l of fileLines) {
    offsets.push(off);
    off += l.length + 1;
  }
  for (let i = 0; i + want.length <= fileLines.length; ) {
    let ok = true;
    for (let j = 0; j < want.length; j++) {
      if (fileLines[i + j]!.trim() !== want[j]) {
        ok = false;
        break;
      }
    }
    if (ok) {
      starts.push(i);
      i += overlapping ? 1 : want.length;
    } else i++;
  }
  if (starts.length === 0) return undefined;
  const newLines = textLines(newText);
  let reindented = false;
  const spans = starts.map((s) => {
    const window = fileLines.slice(s, s + want.length);
    const r = reindent(oldLines, window, newLines);
    reindented ||= r.changed;
    const last = s + want.length - 1;
    const start = offsets[s]!;
    let end = offsets[last]! + fileLines[last]!.length;
    // Deleting whole lines also removes the line break after them.
    if (r.lines.length === 0 && end < text.length) end += 1;
    return { start, end, replacement: r.lines.join("\n") };
  });
  return { spans, reindented };
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function widthOf(indent: string): number {
  let w = 0;
  for (const c of indent) w += c === "\t" ? TAB_WIDTH : 1;
  return w;
}

/**
 * Maps each new line's indentation through the relation between `oldText`'s indentation and the matched
 * file lines' indentation: a constant shift if every line agrees, else a linear scale (2-space vs 4-space
 * code), else line by line relative to the corresponding old line. Never below column 0.
 */
function reindent(
  oldLines: readonly string[],
  fileLines: readonly string[],
  newLines: readonly string[],
): { lines: string[]; changed: boolean } {
  const pairs: [number, number][] = [];
  oldLines.forEach((l, i) => {
    if (l.trim() !== "") pairs.push([widthOf(indentOf(l)), widthOf(indentOf(fileLines[i]!))]);
  });
  const useTabs = fileLines.some((l) => indentOf(l).includes("\t"));
  const map = indentMapping(pairs);
  let changed = false;
  const lines = newLines.map((line, j) => {
    if (line.trim() === "") return line;
    const ind = indentOf(line);
    const w = widthOf(ind);
    let target: number;
    if (map) target = map(w);
    else {
      // Line by line: relative to the old line at the same position (or the last one for extra lines).
      let ref = Math.min(j, oldLines.length - 1);
      while (ref > 0 && oldLines[ref]!.trim() === "") ref--;
      target = widthOf(indentOf(fileLines[ref]!)) + (w - widthOf(indentOf(oldLines[ref]!)));
    }
    target = Math.max(0, Math.round(target));
    const styleOk = useTabs || !ind.includes("\t");
    if (target === w && styleOk) return line;
    changed = true;
    const indent = useTabs
      ? "\t".repeat(Math.floor(target / TAB_WIDTH)) + " ".repeat(target % TAB_WIDTH)
      : " ".repeat(target);
    return indent + line.slice(ind.length);
  });
  return { lines, changed };
}

function indentMapping(pairs: readonly [number, number][]): ((w: number) => number) | undefined {
  if (pairs.length === 0) return (w) => w;
  const d = pairs[0]![1] - pairs[0]![0];
  if (pairs.every(([o, f]) => f - o === d)) return (w) => w + d;
  let lo = pairs[0]!;
  let hi = pairs[0]!;
  for (const p of pairs) {
    if (p[0] < lo[0]) lo = p;
    if (p[0] > hi[0]) hi = p;
  }
  if (hi[0] === lo[0]) return undefined;
  const a = (hi[1] - lo[1]) / (hi[0] - lo[0]);
  const b = lo[1] - a * lo[0];
  if (a <= 0 || !pairs.every(([o, f]) => Math.abs(a * o + b - f) < 0.5)) return undefined;
  return (w) => a * w + b;
}
