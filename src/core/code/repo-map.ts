/**
 * A repository map (aider's method): files are nodes, an identifier that file A uses and file B defines is
 * an edge A→B; PageRank, personalised toward the focus files and names, orders the files; the map is the
 * top files' definitions, as many lines as fit the token budget (binary search). Deterministic: ties break
 * by path, and the iteration count is fixed.
 */
import { escapeName } from "../echo.js";
import type { SymbolNode } from "./extract.js";
import { symbolLine } from "./outline.js";
import { allCodeFiles, type CodeScope, inOrderAhead, readInScope } from "./scope.js";
import { symbolsAndUsesOf } from "./source.js";
import { type FoundSymbol, flatten } from "./symbols.js";

export interface RepoMapOptions {
  maxTokens: number;
  /** Scope-relative paths (a file or a directory prefix) or symbol names to rank toward. */
  focus?: readonly string[];
  /** Most files read (the largest trees are mapped from their first files in path order). */
  maxFiles?: number;
}

export interface RepoMap {
  text: string;
  files: number;
  filesShown: number;
  tokens: number;
  truncatedScan: boolean;
  /** Focus entries that name no file, folder or name of the files mapped (they steered nothing). */
  unmatchedFocus: string[];
}

interface FileInfo {
  path: string;
  language: string | undefined;
  symbols: SymbolNode[];
  /** Names this file uses (not defines), with their counts. */
  uses: Map<string, number>;
  /** `symbols` flattened (kept per file: a warm map flattens and prints nothing again). */
  flat: FoundSymbol[];
  /** An ES module's top-level names other files can import (undefined: every name, as in other languages). */
  exported?: ReadonlySet<string>;
}

const ES_LANGUAGES: ReadonlySet<string> = new Set(["typescript", "tsx", "javascript"]);

/**
 * The names an ES module exports: its `export …` definitions and the names in `export { a, b as c }`.
 * Undefined for a file that neither imports nor exports (a script, CommonJS, a global declaration file):
 * every name of it may be used elsewhere. The others stay private to their file, so a test file's `text`
 * or `area` is not what every other file's `text` refers to.
 */
function esExports(text: string, flat: readonly FoundSymbol[]): Set<string> | undefined {
  if (!/^[ \t]*(?:import|export)\b/m.test(text)) return undefined;
  const names = new Set<string>();
  for (const f of flat)
    if (f.depth === 0 && f.symbol.signature.startsWith("export")) names.add(f.symbol.name);
  for (const m of text.matchAll(/\bexport\s*(?:type\s*)?\{([^}]*)\}/g))
    for (const item of m[1]!.split(",")) {
      const local = /^\s*(?:type\s+)?([\w$]+)/.exec(item)?.[1];
      if (local) names.add(local);
    }
  return names;
}

/** A top-level name of an ES module that it does not export: no other file can use it. */
function privateToFile(f: FileInfo, s: FoundSymbol): boolean {
  return s.depth === 0 && f.exported !== undefined && !f.exported.has(s.symbol.name);
}

const flats = new WeakMap<SymbolNode[], FoundSymbol[]>();
/** A definition's line in the map, printed once per kept answer. */
const printed = new WeakMap<FoundSymbol, string>();

function flatOf(symbols: SymbolNode[]): FoundSymbol[] {
  let f = flats.get(symbols);
  if (!f) {
    f = flatten(symbols);
    flats.set(symbols, f);
  }
  return f;
}

function lineOf(s: FoundSymbol, language: string | undefined): string {
  let line = printed.get(s);
  if (line === undefined) {
    line = `${"  ".repeat(s.depth + 1)}${symbolLine(s.symbol, true, language)}`;
    printed.set(s, line);
  }
  return line;
}

/** Tokens of code text, estimated: measured ~3.6 characters per o200k token on this project's outlines. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.6);
}

async function infoOf(scope: CodeScope, rel: string): Promise<FileInfo | undefined> {
  const file = await readInScope(scope, rel);
  if (!file) return undefined;
  const both = await symbolsAndUsesOf(file, scope.signal);
  if (!both) return undefined;
  const symbols = both.symbols.symbols;
  const flat = flatOf(symbols);
  const exported = ES_LANGUAGES.has(file.language ?? "") ? esExports(file.text, flat) : undefined;
  return { path: rel, language: file.language, symbols, uses: both.uses, flat, exported };
}

/** Reads and parses the files, 8 ahead (the reads overlap; the worker parses one after another). */
async function collect(
  scope: CodeScope,
  maxFiles: number,
): Promise<{ infos: FileInfo[]; truncated: boolean }> {
  const { files, truncated } = await allCodeFiles(scope, false);
  const infos: FileInfo[] = [];
  for await (const info of inOrderAhead(files.slice(0, maxFiles), 8, (rel) => infoOf(scope, rel)))
    if (info) infos.push(info);
  return { infos, truncated: truncated || files.length > maxFiles };
}

function isFocusPath(p: string, focus: readonly string[]): boolean {
  return focus.some((f) => p === f || p.startsWith(f.endsWith("/") ? f : `${f}/`));
}

/**
 * PageRank with personalisation `pers` (sums to 1); dangling nodes jump by `pers`. The edges are laid out
 * flat once (the iterations then read arrays, not maps), in the maps' order, so every sum adds the same
 * terms in the same order as a walk of the maps would: the ranks, and so the map, are the same.
 */
function pageRank(n: number, edges: Map<number, Map<number, number>>, pers: number[]): number[] {
  let rank = pers.slice();
  const out = new Array<number>(n).fill(0);
  for (const [a, targets] of edges) for (const w of targets.values()) out[a] = out[a]! + w;
  const from: number[] = [];
  const to: number[] = [];
  const weight: number[] = [];
  for (const [a, targets] of edges)
    for (const [b, w] of targets) {
      from.push(a);
      to.push(b);
      weight.push(w);
    }
  for (let iter = 0; iter < 40; iter++) {
    const next = pers.map((p) => 0.15 * p);
    let dangling = 0;
    for (let a = 0; a < n; a++) if (out[a] === 0) dangling += rank[a]!;
    for (let i = 0; i < n; i++) next[i]! += 0.85 * dangling * pers[i]!;
    for (let e = 0; e < from.length; e++) {
      const a = from[e]!;
      next[to[e]!]! += (0.85 * rank[a]! * weight[e]!) / out[a]!;
    }
    rank = next;
  }
  return rank;
}

/**
 * A member that holds a value (a property, a field, a class attribute) defines no edge: `x.name` says nothing
 * of which file's `name` it is, and such common names would tie every file to any that declares one.
 */
const MEMBER_VALUES: ReadonlySet<string> = new Set(["property", "field"]);

/** Which files define each name (a file once per name). */
function definersOf(infos: readonly FileInfo[]): Map<string, number[]> {
  const definers = new Map<string, number[]>();
  infos.forEach((f, i) => {
    for (const s of f.flat) {
      if (MEMBER_VALUES.has(s.symbol.kind)) continue;
      if (privateToFile(f, s)) continue;
      const list = definers.get(s.symbol.name) ?? [];
      if (!list.includes(i)) list.push(i);
      definers.set(s.symbol.name, list);
    }
  });
  return definers;
}

/** File ranks: an edge from each file to the files defining the names it uses. */
function rankFiles(
  infos: readonly FileInfo[],
  definers: Map<string, number[]>,
  focus: readonly string[],
): number[] {
  const focusNames = new Set(focus);
  const edges = new Map<number, Map<number, number>>();
  infos.forEach((f, a) => {
    for (const [name, count] of f.uses) {
      const to = definers.get(name);
      if (!to || name.length < 2) continue;
      // aider's weights: a focused name counts 10×, a private or widely defined name a tenth.
      let mul = focusNames.has(name) ? 10 : 1;
      if (name.startsWith("_") || to.length > 5) mul *= 0.1;
      for (const b of to) {
        if (b === a) continue;
        const m = edges.get(a) ?? new Map<number, number>();
        m.set(b, (m.get(b) ?? 0) + mul * Math.sqrt(count));
        edges.set(a, m);
      }
    }
  });
  const weights = infos.map((f) =>
    isFocusPath(f.path, focus) || f.flat.some((s) => focusNames.has(s.symbol.name)) ? 100 : 1,
  );
  const sum = weights.reduce((a, b) => a + b, 0);
  return pageRank(
    infos.length,
    edges,
    weights.map((w) => w / sum),
  );
}

interface RankedDef {
  file: number;
  found: FoundSymbol;
  /** The top-level symbol it belongs to (shown with it), for a member. */
  parent?: FoundSymbol;
  score: number;
}

/**
 * Definitions (two levels deep) by score: the file's rank, raised by how many other files use the name (none
 * can use an ES module's name it does not export). Ties break by path, then line, so the order is
 * deterministic.
 */
function rankDefinitions(infos: readonly FileInfo[], rank: readonly number[]): RankedDef[] {
  const users = new Map<string, number>();
  for (const f of infos) for (const name of f.uses.keys()) users.set(name, (users.get(name) ?? 0) + 1);
  const defs: RankedDef[] = [];
  infos.forEach((f, i) => {
    let parent: FoundSymbol | undefined;
    for (const found of f.flat) {
      if (found.depth === 0) parent = found;
      if (found.depth > 1) continue;
      const name = found.symbol.name;
      const used = privateToFile(f, found) ? 0 : (users.get(name) ?? 0) - (f.uses.has(name) ? 1 : 0);
      const score = rank[i]! * (1 + Math.log1p(used)) * (found.depth === 0 ? 1 : 0.5);
      defs.push({ file: i, found, ...(found.depth === 1 ? { parent } : {}), score });
    }
  });
  return defs.sort(
    (a, b) =>
      b.score - a.score ||
      (infos[a.file]!.path < infos[b.file]!.path ? -1 : infos[a.file]!.path > infos[b.file]!.path ? 1 : 0) ||
      a.found.symbol.startLine - b.found.symbol.startLine,
  );
}

/** The map of the first `k` ranked definitions: files in rank order, each file's lines in line order. */
function render(
  infos: readonly FileInfo[],
  rank: readonly number[],
  defs: readonly RankedDef[],
  k: number,
): { text: string; files: number } {
  const byFile = new Map<number, Map<FoundSymbol, true>>();
  for (const d of defs.slice(0, k)) {
    const set = byFile.get(d.file) ?? new Map<FoundSymbol, true>();
    if (d.parent) set.set(d.parent, true);
    set.set(d.found, true);
    byFile.set(d.file, set);
  }
  const files = [...byFile.keys()].sort(
    (a, b) => rank[b]! - rank[a]! || (infos[a]!.path < infos[b]!.path ? -1 : 1),
  );
  const out: string[] = [];
  for (const f of files) {
    out.push(`${escapeName(infos[f]!.path)}:`);
    const shown = [...byFile.get(f)!.keys()].sort(
      (a, b) => a.symbol.start - b.symbol.start || a.depth - b.depth,
    );
    // Names declared together (`String name, region;`) share a line: it is shown once.
    for (const line of new Set(shown.map((s) => lineOf(s, infos[f]!.language)))) out.push(line);
  }
  return { text: out.join("\n"), files: files.length };
}

export async function repoMap(scope: CodeScope, o: RepoMapOptions): Promise<RepoMap> {
  const { infos, truncated } = await collect(scope, o.maxFiles ?? 5000);
  const rank = rankFiles(infos, definersOf(infos), o.focus ?? []);
  const defs = rankDefinitions(infos, rank);
  // The most definitions whose map fits the budget.
  let lo = 0;
  let hi = defs.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(render(infos, rank, defs, mid).text) <= o.maxTokens) lo = mid;
    else hi = mid - 1;
  }
  const map = render(infos, rank, defs, lo);
  const unmatchedFocus = (o.focus ?? []).filter(
    (f) =>
      !infos.some(
        (i) => isFocusPath(i.path, [f]) || i.uses.has(f) || i.flat.some((s) => s.symbol.name === f),
      ),
  );
  return {
    text: map.text,
    files: infos.length,
    filesShown: map.files,
    tokens: estimateTokens(map.text),
    truncatedScan: truncated,
    unmatchedFocus,
  };
}
