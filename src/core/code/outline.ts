/** An outline's text (`L12-40 class Parser`, nested by indentation) and its structured form. */
import type { SymbolNode } from "./extract.js";

export interface OutlineOptions {
  /** Levels shown (1 = top level only); default all. */
  depth?: number;
  /** Show each symbol's signature instead of `kind name`; default true. */
  signatures?: boolean;
  /** Prefix of every line (a directory outline indents under the file's path). */
  indent?: string;
  /** The file's language (how its signatures are shortened). */
  language?: string;
}

/** The range of a symbol as printed: `L12-40`, or `L12` for one line. */
export function rangeLabel(s: { startLine: number; endLine: number }): string {
  return s.endLine > s.startLine ? `L${s.startLine}-${s.endLine}` : `L${s.startLine}`;
}

/** Kinds that hold a value: its initialiser is not part of what the outline shows. */
const VALUE_KINDS = new Set(["variable", "constant", "property", "field"]);
/** Past this length a signature keeps its parameters' names only (their types are in read_symbol). */
const LONG_SIGNATURE = 70;

/** The index of the bracket closing the one at `open` (arrows `=>` are not brackets). */
function closing(sig: string, open: number): number {
  let depth = 0;
  for (let i = open; i < sig.length; i++) {
    const c = sig[i]!;
    if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && sig[i - 1] !== "=")) if (--depth === 0) return i;
  }
  return -1;
}

/** `f(a: A, b?: B = 1): R` → `f(a, b?): R`: the parameter list after the symbol's name, by name. */
function parameterNames(sig: string, name: string): string {
  const open = sig.indexOf("(", Math.max(0, sig.indexOf(name)));
  const close = open === -1 ? -1 : closing(sig, open);
  if (close === -1) return sig;
  const names: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i <= close; i++) {
    const c = sig[i]!;
    if (i === close || (c === "," && depth === 0)) {
      const p = sig.slice(start, i).trim();
      if (p)
        names.push(/^(?:(?:readonly|private|public|protected|mut)\s+)*(\.{0,3}[\w$]+\??)/.exec(p)?.[1] ?? p);
      start = i + 1;
    } else if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && sig[i - 1] !== "=")) depth--;
  }
  return `${sig.slice(0, open + 1)}${names.join(", ")}${sig.slice(close)}`;
}

/** Languages whose parameters read `name: type` (the name first), so a long list can keep its names. */
const NAME_FIRST = new Set(["typescript", "tsx", "javascript", "python", "rust"]);

/**
 * A signature as the outline shows it, for fewer tokens: one space between words, no initialiser of a value,
 * no `const`/`let`/`var` before the name (the name says it), a long inline type literal as `{…}`, and a long parameter list
 * by name where names come first.
 */
function leanSignature(s: SymbolNode, language?: string): string {
  let sig = s.signature.replace(/\(\s+/g, "(").replace(/,?\s+\)/g, ")");
  if (VALUE_KINDS.has(s.kind)) sig = sig.replace(/\s=\s[\s\S]*$/, "");
  // Only before the name: C's `const char *f()` keeps its `const` (it is the return type's).
  const keyword = /^((?:export )?(?:default )?(?:declare )?)(?:const|let|var) /.exec(sig);
  if (keyword && sig.startsWith(s.name, keyword[0].length)) sig = keyword[1] + sig.slice(keyword[0].length);
  sig = sig.replace(/\{[^{}]{30,}\}/g, "{…}");
  if (sig.length > LONG_SIGNATURE && language !== undefined && NAME_FIRST.has(language))
    sig = parameterNames(sig, s.name);
  return sig;
}

export function symbolLine(s: SymbolNode, signatures: boolean, language?: string): string {
  const sig = signatures && s.signature !== "" ? leanSignature(s, language) : `${s.kind} ${s.name}`;
  return `${rangeLabel(s)} ${sig}`;
}

/** Members with nothing inside (fields, properties, an enum's members): named on their owner's line, `{ a, b }`. */
const isFolded = (s: SymbolNode, owner: SymbolNode) =>
  (s.kind === "property" || s.kind === "field" || (owner.kind === "enum" && s.kind === "constant")) &&
  s.children.length === 0;

/** A line of an outline and the place of its symbol among the file's symbols (`flatten`'s order, from 0). */
export interface OutlineLine {
  text: string;
  index: number;
}

/** How many symbols `symbols` hold, nested ones too: an outline's entries, as its `offset` counts them. */
export function symbolCount(symbols: readonly SymbolNode[]): number {
  let n = 0;
  for (const s of symbols) n += 1 + symbolCount(s.children);
  return n;
}

/**
 * The outline's lines, each with its symbol's index: a page of an outline goes on from an index, which is the
 * same whatever `depth` or `signatures` (a symbol hidden by depth, or folded, still has one).
 */
export function outlineLines(symbols: readonly SymbolNode[], opts: OutlineOptions = {}): OutlineLine[] {
  const out: OutlineLine[] = [];
  const depth = opts.depth ?? Number.POSITIVE_INFINITY;
  let index = 0;
  const walk = (nodes: readonly SymbolNode[], level: number) => {
    const pad = (opts.indent ?? "") + "  ".repeat(level);
    for (const s of nodes) {
      let text = pad + symbolLine(s, opts.signatures !== false, opts.language);
      const shown = level + 1 < depth ? s.children : [];
      const folded = shown.filter((c) => isFolded(c, s)).map((c) => c.name);
      // A signature that ends with its body's brace (Go's `Stats struct {`) gives the fold that brace.
      if (folded.length > 0) text = `${text.replace(/\s*\{$/, "")} { ${folded.join(", ")} }`;
      out.push({ text, index });
      index++;
      for (const c of s.children) {
        if (shown.length > 0 && !isFolded(c, s)) walk([c], level + 1);
        else index += 1 + symbolCount(c.children);
      }
    }
  };
  if (depth > 0) walk(symbols, 0);
  return out;
}

/** What `structuredContent.symbols` holds: no offsets, children only where there are some. */
export interface OutlineSymbol {
  name: string;
  kind: string;
  startLine: number;
  endLine: number;
  signature?: string;
  children?: OutlineSymbol[];
}

export function outlineTree(
  symbols: readonly SymbolNode[],
  opts: OutlineOptions = {},
  level = 0,
): OutlineSymbol[] {
  const depth = opts.depth ?? Number.POSITIVE_INFINITY;
  if (level >= depth) return [];
  return symbols.map((s) => {
    const children = outlineTree(s.children, opts, level + 1);
    return {
      name: s.name,
      kind: s.kind,
      startLine: s.startLine,
      endLine: s.endLine,
      ...(opts.signatures !== false ? { signature: s.signature } : {}),
      ...(children.length > 0 ? { children } : {}),
    };
  });
}
