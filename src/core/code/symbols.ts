/** Looking symbols up by name and flattening their tree. */
import { ToolError } from "../errors.js";
import type { SymbolNode } from "./extract.js";
import type { SymbolKind } from "./languages.js";

export interface FoundSymbol {
  symbol: SymbolNode;
  /** Names from the outermost symbol down, joined with "." (`Parser.parse`). */
  qualified: string;
  depth: number;
}

/** Every symbol, outermost first, each before its children. */
export function flatten(
  symbols: readonly SymbolNode[],
  prefix = "",
  depth = 0,
  out: FoundSymbol[] = [],
): FoundSymbol[] {
  for (const s of symbols) {
    const own = s.scope ? `${s.scope}.${s.name}` : s.name;
    const qualified = prefix ? `${prefix}.${own}` : own;
    out.push({ symbol: s, qualified, depth });
    flatten(s.children, qualified, depth + 1, out);
  }
  return out;
}

export interface NameQuery {
  /** A name, or a qualified name (`Parser.parse`, `mod::Type`, `Class#method` read as dots). */
  name: string;
  /** Default true: the name must equal the symbol's; false: it may be a part of it (case-insensitive). */
  exact?: boolean;
  kind?: SymbolKind;
}

/** The separators of a qualified name's parts. */
const SEPARATORS = /\.|::|#|->|\\/;

/**
 * Refuses a name with no part (empty, blank, only separators) before any file is searched: it names no
 * symbol, and matching it would list every one (find_symbol) or parse a whole tree for nothing.
 */
export function checkSymbolName(name: string, requested?: string): void {
  if (nameParts(name).every((p) => p.trim() === ""))
    throw new ToolError("invalid", { reason: "symbol_name_empty", parameter: "name", path: requested });
}

/**
 * The parts of a qualified name, a query's or a symbol's (whose own names may hold separators: Ruby's
 * `class A::B`, C++'s `namespace a::b`, PHP's `namespace App\Legacy`); Go's `(*Store).Get` reads as `Store.Get`.
 */
function nameParts(name: string): string[] {
  return name
    .split(SEPARATORS)
    .map((p) => p.replace(/^\(\*?(.*)\)$/, "$1"))
    .filter((p) => p !== "");
}

/** The symbols a query names: a qualified query matches the end of the qualified name. */
export function matchSymbols(symbols: readonly SymbolNode[], q: NameQuery): FoundSymbol[] {
  const parts = nameParts(q.name);
  const exact = q.exact !== false;
  return flatten(symbols).filter((f) => {
    if (q.kind !== undefined && f.symbol.kind !== q.kind) return false;
    const names = nameParts(f.qualified);
    if (parts.length > names.length) return false;
    const tail = names.slice(names.length - parts.length);
    return parts.every((p, i) =>
      exact || i < parts.length - 1 ? tail[i] === p : tail[i]!.toLowerCase().includes(p.toLowerCase()),
    );
  });
}

/** The last name of a query (what ripgrep looks for to pick candidate files). */
export function lastName(name: string): string {
  const parts = nameParts(name);
  return parts[parts.length - 1] ?? name;
}
