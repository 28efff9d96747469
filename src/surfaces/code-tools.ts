/**
 * The code tools' work for both surfaces: code-catalog.ts declares their schemas once, each surface gives
 * its parameter names and path rules (`CodePaths`). Algorithms live in core/code/.
 */
import { z } from "zod";
import { ANY_COUNT, widest } from "../core/budget.js";
import { editSymbol, oneSymbol, type Placement } from "../core/code/edit-symbol.js";
import { findSymbol } from "../core/code/find-symbol.js";
import { indentSymbols } from "../core/code/indent-outline.js";
import { SYMBOL_KINDS, type SymbolKind } from "../core/code/languages.js";
import { type OutlineLine, outlineLines, outlineTree, symbolCount } from "../core/code/outline.js";
import { findReferences, occurrencesInRows, referenceRows } from "../core/code/references.js";
import { repoMap } from "../core/code/repo-map.js";
import { allCodeFiles, type CodeScope, inOrderAhead, readInScope } from "../core/code/scope.js";
import { type FileSymbols, MAX_CODE_BYTES, symbolsOf, viewCode } from "../core/code/source.js";
import { checkSymbolName } from "../core/code/symbols.js";
import { fencedDiff } from "../core/edit/diff.js";
import { isErrno, noSuchPathError, ToolError } from "../core/errors.js";
import { escapeName, printable } from "../core/paths.js";
import { isFileTarget } from "../core/search/grep.js";
import { lfPieces } from "../core/text/lines.js";
import { numberLines } from "../core/text/number.js";
import type { ResolvedPath } from "../core/workspace.js";
import { recordChanges, type ToolContext } from "./tool.js";
import { clientMessage } from "./wording.js";

/** How a surface resolves the paths of the code tools. */
export interface CodePaths {
  /** A file the client named, through the path gate (and the surface's ignore gate). */
  file(ctx: ToolContext, requested: string, intent: "read" | "write"): Promise<ResolvedPath>;
  /** A file or directory the client named (or the default), as a scope for tree-wide tools. */
  scope(ctx: ToolContext, requested: string | undefined): Promise<CodeScope>;
  /** The surface's name of a parameter named here in camelCase (`maxResults`; `filePath`: the file's). */
  param(name: string): string;
}

/** A scope over a resolved path: `admit` is the surface's gate for each file found below it. */
export async function scopeOf(
  ctx: ToolContext,
  target: ResolvedPath,
  gitignore: boolean,
  admit: CodeScope["admit"],
): Promise<CodeScope> {
  let isFile: boolean;
  try {
    isFile = await isFileTarget(target.real);
  } catch (err) {
    // Only a missing path is an answer about it; any other failure is worded by its own code.
    if (isErrno(err, "ENOENT", "ENOTDIR")) throw noSuchPathError(target.requested);
    throw err;
  }
  return {
    root: target.root,
    start: target.real,
    isFile,
    gitignore,
    engine: ctx.config.grepEngine,
    encoding: ctx.config.defaultEncoding,
    signal: ctx.signal,
    admit,
    tooLarge: [],
  };
}

/** Names in a closing note, at most. */
const NOTE_NAMES = 3;

/**
 * A closing note naming `names` (`""` when there are none): `before`, the first few names and how many more,
 * `after`; taken from the budget now, or left out when it does not fit.
 */
function namesNote(ctx: ToolContext, names: readonly string[], before: string, after: string): string {
  if (names.length === 0) return "";
  const more = names.length > NOTE_NAMES ? ` and ${names.length - NOTE_NAMES} more` : "";
  const note = `\n[mcpfs: ${before}${names.slice(0, NOTE_NAMES).map(printable).join(", ")}${more}. ${after}]`;
  return ctx.budget.take(note) ? note : "";
}

/** The files a tree-wide call left out for being over the parse limit: the answer is whole but for them. */
const tooLargeNote = (ctx: ToolContext, scope: CodeScope) =>
  namesNote(
    ctx,
    [...new Set(scope.tooLarge)].sort(),
    `not parsed, over ${MAX_CODE_BYTES / 1024 / 1024} MiB: `,
    "grep them instead.",
  );

/** A repository map's focus entries that named nothing mapped (they steered nothing). */
const unmatchedFocusNote = (ctx: ToolContext, unmatched: readonly string[]) =>
  namesNote(
    ctx,
    unmatched,
    "focus named no file, folder or name here: ",
    "Paths are relative to the mapped path.",
  );

export interface CodeReply {
  text: string;
  fields: Record<string, unknown>;
}

const outlineSymbol: z.ZodType = z.lazy(() =>
  z.object({
    name: z.string(),
    kind: z.string(),
    startLine: z.number(),
    endLine: z.number(),
    signature: z.string().optional(),
    children: z.array(outlineSymbol).optional(),
  }),
);

export const kindParam = z.enum(SYMBOL_KINDS as [SymbolKind, ...SymbolKind[]]);

/** The structured fields of each tool (beside the surface's text field). */
export const codeFields = {
  outline: {
    symbols: z.array(outlineSymbol).optional().describe("a file's symbols, nested"),
    files: z.array(z.object({ path: z.string(), symbols: z.array(outlineSymbol) })).optional(),
    language: z.string().optional(),
    nextOffset: z.number().optional().describe("the offset of the next page"),
    truncated: z.boolean().optional(),
  },
  findSymbol: {
    hits: z.array(
      z.object({
        path: z.string(),
        name: z.string(),
        qualifiedName: z.string(),
        kind: z.string(),
        startLine: z.number(),
        endLine: z.number(),
        signature: z.string(),
      }),
    ),
    truncated: z.boolean().optional(),
  },
  readSymbol: {
    name: z.string(),
    kind: z.string(),
    startLine: z.number(),
    endLine: z.number(),
    sha256: z.string().describe("sha256 of the file: pass it to replace_symbol/insert_symbol"),
    truncated: z.boolean().optional(),
  },
  findReferences: {
    files: z.array(
      z.object({
        path: z.string(),
        references: z.array(z.object({ line: z.number(), tags: z.array(z.string()), text: z.string() })),
      }),
    ),
    total: z.number(),
    truncated: z.boolean().optional(),
  },
  editSymbol: {
    written: z.boolean(),
    sha256: z.string().describe("sha256 of the file after the call"),
    startLine: z.number().describe("first line of the symbol before the change"),
    endLine: z.number(),
    truncated: z.boolean().optional(),
  },
  repoMap: {
    files: z.number().describe("code files ranked"),
    filesShown: z.number(),
    tokens: z.number().describe("estimated tokens of the map"),
  },
};

/** The closing note of a reply that shows part of what it found: `total` may be "at least N". */
const pageNote = (shown: number, total: number | string, noun: string, next: string) =>
  `\n[mcpfs: output truncated: showing ${shown} of ${total} ${noun}. Continue with ${next}.]`;

/** What a search found, as `searchReply` counts it (`seen` is a lower bound unless `seenAll`). */
interface SearchCount {
  capped: boolean;
  seen: number;
  seenAll: boolean;
}

/**
 * A search's rows, and when not all it found are shown, a note: how many `noun` of how many (`at least` when
 * it stopped at maxResults with files left), and the step that shows the rest: `narrower(kept)` when the
 * reply was full, a larger maxResults when only the search's cap hid them.
 */
function searchReply(
  ctx: ToolContext,
  paths: CodePaths,
  rows: readonly string[],
  found: SearchCount,
  how: { noun: string; shownIn(kept: number): number; narrower(kept: number): string },
): { text: string; truncated: boolean } {
  const total = found.seenAll ? found.seen : `at least ${found.seen}`;
  const larger = `a larger ${paths.param("maxResults")}`;
  const note = (kept: number) =>
    kept === ANY_COUNT
      ? widest([larger, how.narrower(ANY_COUNT)].map((next) => pageNote(ANY_COUNT, total, how.noun, next)))
      : pageNote(how.shownIn(kept), total, how.noun, kept < rows.length ? how.narrower(kept) : larger);
  const { kept, note: closing } = ctx.budget.fitLines(rows, note, found.capped);
  return { text: rows.slice(0, kept).join("\n") + (closing ?? ""), truncated: closing !== undefined };
}

/** Where the parse failed, so the model can look there (tree-sitter may drop every symbol after it). */
function errorsNote(p: FileSymbols): string {
  return p.errors > 0
    ? `\n[mcpfs: ${p.errors} syntax error${p.errors === 1 ? "" : "s"} in the file, the first on line ${p.firstError}; symbols from there on may be missing.]`
    : "";
}

/** A file with no grammar still outlines by its indentation and `[sections]` (cheap, never a failure). */
const byIndentation = (text: string): FileSymbols => ({
  symbols: indentSymbols(text),
  errors: 0,
  firstError: 0,
});
const INDENTED = "\n[mcpfs: no grammar for this file type: outline by indentation.]";

export interface OutlineArgs {
  path: string;
  depth?: number;
  signatures?: boolean;
  offset?: number;
}

/** What a file without a grammar is told: the refusal's words (the same case read_symbol refuses with). */
const noGrammarNote = (requested: string) =>
  clientMessage(new ToolError("invalid", { reason: "no_grammar", path: requested }));

/** A file's outline cut after the symbols before `next` (the outline's `offset` goes on from there). */
const symbolsNote = (offset: number, next: number, total: number, offsetParam: string) =>
  `\n[mcpfs: output truncated: showing symbols ${offset + 1}-${next} of ${total}. Continue with ${offsetParam}=${next}.]`;

export async function outlineCode(ctx: ToolContext, paths: CodePaths, a: OutlineArgs): Promise<CodeReply> {
  const scope = await paths.scope(ctx, a.path);
  const opts = { depth: a.depth, signatures: a.signatures };
  if (scope.isFile) {
    const target = await paths.file(ctx, a.path, "read");
    const file = await viewCode(target, ctx.config.defaultEncoding);
    const parsed = (await symbolsOf(file, ctx.signal)) ?? byIndentation(file.text);
    if (parsed.symbols.length === 0 && file.language === undefined)
      return { text: noGrammarNote(a.path), fields: { symbols: [] } };
    const offset = a.offset ?? 0;
    const total = symbolCount(parsed.symbols);
    const lines = outlineLines(parsed.symbols, { ...opts, language: file.language }).filter(
      (l) => l.index >= offset,
    );
    const { kept, note } = ctx.budget.fitLines(
      lines.map((l) => l.text),
      (k) => symbolsNote(offset, lines[k]?.index ?? ANY_COUNT, total, paths.param("offset")),
    );
    const none = offset > 0 ? `(no symbols from offset ${offset}: the file has ${total})` : "(no symbols)";
    const text =
      (lines
        .slice(0, kept)
        .map((l) => l.text)
        .join("\n") || none) + (note ?? (file.language === undefined ? INDENTED : errorsNote(parsed)));
    return {
      text,
      fields: {
        symbols: outlineTree(parsed.symbols, opts),
        language: file.language,
        ...(note !== undefined ? { nextOffset: lines[kept]!.index, truncated: true } : { truncated: false }),
      },
    };
  }
  return outlineDirectory(ctx, paths, scope, a);
}

/**
 * Files read and parsed ahead of the one printed: the worker never waits for this thread's reads, and when a
 * page fills, the files still in flight keep it parsing while the reply goes out and the next page's call
 * walks the tree (~40 ms, ~25 files of src/, measured; with 8 the worker sat idle for most of it).
 */
const AHEAD = 32;

async function outlineDirectory(
  ctx: ToolContext,
  paths: CodePaths,
  scope: CodeScope,
  a: OutlineArgs,
): Promise<CodeReply> {
  const { files } = await allCodeFiles(scope, true);
  const offset = Math.max(0, a.offset ?? 0);
  const offsetParam = paths.param("offset");
  const opts = { depth: a.depth ?? 2, signatures: a.signatures ?? false, indent: "  " };
  const close = ctx.budget.reserve(pageNote(ANY_COUNT, ANY_COUNT, "files", `${offsetParam}=${ANY_COUNT}`));
  const page = ctx.budget.remaining;
  const blocks: string[] = [];
  const shown: { path: string; symbols: unknown[] }[] = [];
  let next: number | undefined;
  const parsedAhead = inOrderAhead(files.slice(offset), AHEAD, async (rel) => {
    const file = await readInScope(scope, rel);
    return file ? { file, parsed: await symbolsOf(file, ctx.signal) } : undefined;
  });
  let i = offset - 1;
  for await (const got of parsedAhead) {
    i++;
    const tooLarge = !got && scope.tooLarge.includes(files[i]!);
    if (!got?.parsed && !tooLarge) continue;
    const symbols = got?.parsed?.symbols ?? [];
    const lines = outlineLines(symbols, { ...opts, language: got?.file.language });
    const notes = got?.parsed
      ? []
      : [`  (not parsed: over ${MAX_CODE_BYTES / 1024 / 1024} MiB; grep it instead)`];
    if (got?.parsed?.firstError)
      notes.push(`  (syntax error on line ${got.parsed.firstError}: symbols from there on may be missing)`);
    const header = escapeName(files[i]!);
    const block = [header, ...lines.map((l) => l.text), ...notes].join("\n");
    if (ctx.budget.take(`${block}\n`)) blocks.push(block);
    else if (ctx.budget.sizeOf(block) < page) {
      next = i; // the next page holds it whole
      break;
    } else {
      // Over any page: cut where it stands, with how to see the rest of it; the pages go on after it.
      blocks.push(cutFileBlock(ctx, header, lines, symbolCount(symbols), offsetParam));
      next = i + 1;
    }
    shown.push({ path: files[i]!, symbols: outlineTree(symbols, opts) });
    if (next !== undefined) break;
  }
  const none = offset > 0 ? `(no code files from offset ${offset})` : "(no code files)";
  let text = blocks.join("\n") || none;
  const more = next !== undefined && next < files.length;
  text += close(
    more ? pageNote(next! - offset, files.length - offset, "files", `${offsetParam}=${next}`) : "",
  );
  return {
    text,
    fields: {
      files: shown,
      ...(more ? { nextOffset: next } : {}),
      ...(next !== undefined ? { truncated: true } : {}),
    },
  };
}

/**
 * The block of a file whose outline alone is over what the page has left: its path, the lines that fit, and
 * how to see the rest (the file's own outline, from the first symbol not shown).
 */
function cutFileBlock(
  ctx: ToolContext,
  header: string,
  lines: readonly OutlineLine[],
  total: number,
  offsetParam: string,
): string {
  const rows = [header, ...lines.map((l) => l.text)];
  const { kept, note } = ctx.budget.fitLines(rows, (k) => {
    // The row after the last one kept is the symbol to go on from (row 0 is the path).
    const from = k === ANY_COUNT ? ANY_COUNT : (lines[Math.max(0, k - 1)]?.index ?? total);
    return `\n  [mcpfs: showing symbols 1-${from} of ${total}; the rest: outline this file with ${offsetParam}=${from}.]`;
  });
  return rows.slice(0, kept).join("\n") + (note ?? "");
}

export interface FindSymbolArgs {
  name: string;
  path?: string;
  kind?: SymbolKind;
  exact?: boolean;
  includeBody?: boolean;
  maxResults?: number;
}

/** Numbered lines of LF pieces (a CRLF line's CR is its terminator's, not shown). */
function numbered(lines: readonly string[], first: number): string[] {
  return numberLines(
    lines.map((l) => l.replace(/\r$/, "")),
    first,
  );
}

export async function findSymbolCode(
  ctx: ToolContext,
  paths: CodePaths,
  a: FindSymbolArgs,
): Promise<CodeReply> {
  checkSymbolName(a.name, a.path);
  const scope = await paths.scope(ctx, a.path);
  const r = await findSymbol(scope, {
    name: a.name,
    kind: a.kind,
    exact: a.exact,
    maxResults: a.maxResults ?? 50,
    withBody: a.includeBody,
  });
  const left = tooLargeNote(ctx, scope);
  const rows: string[] = [];
  /** The row of each hit's first line (its body's rows follow it). */
  const heads: number[] = [];
  for (const h of r.hits) {
    heads.push(rows.length);
    rows.push(
      `${escapeName(h.path)}:L${h.symbol.startLine}-${h.symbol.endLine} ${h.symbol.kind} ${h.symbol.signature || h.qualified}`,
    );
    if (h.lines)
      rows.push(...numbered(h.lines.slice(h.symbol.startLine - 1, h.symbol.endLine), h.symbol.startLine));
  }
  const kind = paths.param("kind");
  const narrower = [
    ...(a.includeBody ? [`${paths.param("includeBody")}=false`] : []),
    `a narrower ${scope.isFile ? "" : "path, "}name or ${kind}`,
  ].join(" or ");
  const { text: found, truncated } = searchReply(ctx, paths, rows, r, {
    noun: "definitions",
    // A hit counts as shown when all its rows are (its body may be cut).
    shownIn: (kept) => heads.filter((_, i) => (heads[i + 1] ?? rows.length) <= kept).length,
    narrower: () => narrower,
  });
  const text =
    (rows.length === 0
      ? `No definition of '${printable(a.name)}' found. Try exact=false or find_references.`
      : found) + left;
  const hits = r.hits.map((h) => ({
    path: h.path,
    name: h.symbol.name,
    qualifiedName: h.qualified,
    kind: h.symbol.kind,
    startLine: h.symbol.startLine,
    endLine: h.symbol.endLine,
    signature: h.symbol.signature,
  }));
  return { text, fields: { hits, truncated } };
}

export interface ReadSymbolArgs {
  path: string;
  name: string;
  context?: number;
}

export async function readSymbolCode(
  ctx: ToolContext,
  paths: CodePaths,
  a: ReadSymbolArgs,
): Promise<CodeReply> {
  const target = await paths.file(ctx, a.path, "read");
  const file = await viewCode(target, ctx.config.defaultEncoding);
  const found = await oneSymbol(file, a.path, a.name, ctx.signal);
  const s = found.symbol;
  const all = lfPieces(file.text);
  const ctxLines = Math.max(0, a.context ?? 0);
  const first = Math.max(1, s.startLine - ctxLines);
  const last = Math.min(all.length, s.endLine + ctxLines);
  const rows = numbered(all.slice(first - 1, last), first);
  const tail = `\n[mcpfs: ${found.qualified} L${s.startLine}-${s.endLine}; file sha256 ${file.sha256}]`;
  const close = ctx.budget.reserve(
    tail + pageNote(ANY_COUNT, ANY_COUNT, "lines", `a line range from line ${ANY_COUNT}`),
  );
  const kept = ctx.budget.takeLines(rows);
  const cut =
    kept < rows.length ? pageNote(kept, rows.length, "lines", `a line range from line ${first + kept}`) : "";
  const text = rows.slice(0, kept).join("\n") + close(cut + tail);
  return {
    text,
    fields: {
      name: found.qualified,
      kind: s.kind,
      startLine: s.startLine,
      endLine: s.endLine,
      sha256: file.sha256,
      truncated: cut !== "",
    },
  };
}

export interface FindReferencesArgs {
  name: string;
  path?: string;
  maxResults?: number;
}

export async function findReferencesCode(
  ctx: ToolContext,
  paths: CodePaths,
  a: FindReferencesArgs,
): Promise<CodeReply> {
  checkSymbolName(a.name, a.path);
  const scope = await paths.scope(ctx, a.path);
  const r = await findReferences(scope, a.name, a.maxResults ?? 200);
  const left = tooLargeNote(ctx, scope);
  const rows = referenceRows(r.files);
  const { text: found, truncated } = searchReply(ctx, paths, rows, r, {
    noun: "occurrences",
    shownIn: (kept) => occurrencesInRows(r.files, kept),
    // One file's rows are its lines (after the header and its path): the rest is read from the first not shown.
    narrower: (kept) =>
      scope.isFile
        ? `a line range from line ${r.files[0]?.lines[Math.max(0, kept - 2)]?.line ?? ANY_COUNT}`
        : "a narrower path",
  });
  const text = (r.total === 0 ? `No occurrences of '${printable(a.name)}' as an identifier.` : found) + left;
  const files = r.files.map((f) => ({
    path: f.path,
    references: f.lines.map(({ line, tags, text }) => ({ line, tags, text })),
  }));
  return { text, fields: { files, total: r.total, truncated } };
}

export interface EditSymbolArgs {
  path: string;
  name: string;
  placement: Placement;
  expectedSha256?: string;
  dryRun?: boolean;
}

export async function editSymbolCode(
  ctx: ToolContext,
  paths: CodePaths,
  a: EditSymbolArgs,
): Promise<CodeReply> {
  const target = await paths.file(ctx, a.path, a.dryRun ? "read" : "write");
  const r = await editSymbol(target, a.name, a.placement, {
    dryRun: a.dryRun,
    expectedSha256: a.expectedSha256,
    diffName: a.path,
    signal: ctx.signal,
    encoding: ctx.config.defaultEncoding,
  });
  if (r.change) recordChanges(ctx, [r.change]);
  const done = r.written ? "written" : "nothing written";
  const { text, truncated } = ctx.budget.fit(
    fencedDiff(r.diff),
    `\n[mcpfs: diff truncated; ${done}. Check the symbol with read_symbol.]`,
    true,
  );
  return {
    text,
    fields: {
      written: r.written,
      sha256: r.sha256,
      startLine: r.symbol.symbol.startLine,
      endLine: r.symbol.symbol.endLine,
      truncated,
    },
  };
}

export interface RepoMapArgs {
  path?: string;
  maxTokens?: number;
  focus?: string[];
}

export async function repoMapCode(ctx: ToolContext, paths: CodePaths, a: RepoMapArgs): Promise<CodeReply> {
  const scope = await paths.scope(ctx, a.path);
  // A token is at least a byte: a budget beyond the reply's room could never be shown.
  const maxTokens = Math.min(Math.max(64, a.maxTokens ?? 1024), ctx.budget.remaining);
  const m = await repoMap(scope, { maxTokens, focus: a.focus });
  const left = tooLargeNote(ctx, scope) + unmatchedFocusNote(ctx, m.unmatchedFocus);
  const note = m.truncatedScan
    ? "\n[mcpfs: the tree is large; mapped from its first files. Give a narrower path.]"
    : "";
  const { text } = ctx.budget.fit(
    (m.text || "(no code files)") + note,
    "\n[mcpfs: map cut to fit the reply.]",
    true,
  );
  return { text: text + left, fields: { files: m.files, filesShown: m.filesShown, tokens: m.tokens } };
}
