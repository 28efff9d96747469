/** An outline's text (`L12-40 class Parser`, nested by indentation) and its structured form. */
import type { SymbolNode } from "./extract.js";

export interface OutlineOptions {
  /** Levels shown (1 = top level only); default all. */
  depth?: number;
  /** Show each symbol's signature instead of `kind name`; default true. */
  signatures?: boolean;
  /** Prefix of every line (a directory outline indents under the file's path). */
  indent?: string;
}

/** The range of a symbol as printed: `L12-40`, or `L12` for one line. */
export function rangeLabel(s: { startLine: number; endLine: number }): string {
  return s.endLine > s.startLine ? `L${s.startLine}-${s.endLine}` : `L${s.startLine}`;
}

export function symbolLine(s: SymbolNode, signatures: boolean): string {
  const sig = signatures && s.signature !== "" ? s.signature : `${s.kind} ${s.name}`;
  return `${rangeLabel(s)} ${sig}`;
}

export function outlineLines(symbols: readonly SymbolNode[], opts: OutlineOptions = {}, level = 0): string[] {
  const out: string[] = [];
  const depth = opts.depth ?? Number.POSITIVE_INFINITY;
  if (level >= depth) return out;
  const pad = (opts.indent ?? "") + "  ".repeat(level);
  for (const s of symbols) {
    out.push(pad + symbolLine(s, opts.signatures !== false));
    out.push(...outlineLines(s.children, opts, level + 1));
  }
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
