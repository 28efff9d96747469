/**
 * Symbol edits: replace a definition's text, or insert text before or after it. Read once through the
 * verified open, checked against `expectedSha256`, refused when the result parses with more syntax errors
 * than the original, and committed through the transaction (lost-update check, undo journal).
 */

import { unifiedDiff } from "../edit/diff.js";
import { ToolError } from "../errors.js";
import { checkExpected } from "../mutate/precondition.js";
import { type ChangeResult, commitChanges } from "../mutate/transaction.js";
import { encodeText } from "../text/decode.js";
import { parseDoc } from "../text/document.js";
import { linesOf, toLf } from "../text/lines.js";
import type { ResolvedPath } from "../workspace.js";
import type { SymbolNode } from "./extract.js";
import { rangeLabel } from "./outline.js";
import { parseErrors } from "./parser-pool.js";
import { type CodeText, readCode, symbolsOf } from "./source.js";
import { checkSymbolName, type FoundSymbol, matchSymbols } from "./symbols.js";

export interface SymbolEditOptions {
  dryRun?: boolean;
  expectedSha256?: string;
  /** Name in the diff headers. */
  diffName: string;
  signal?: AbortSignal;
  /** `--default-encoding` for a file that is not UTF-8: read in it and written back in it. */
  encoding?: string;
}

export interface SymbolEditResult {
  diff: string;
  written: boolean;
  sha256: string;
  symbol: FoundSymbol;
  change?: ChangeResult;
}

export type Placement = { kind: "replace"; text: string } | { kind: "before" | "after"; text: string };

/** The one symbol `name` designates in a file, or a refusal that lists the candidates. */
export async function oneSymbol(
  file: CodeText,
  requested: string,
  name: string,
  signal?: AbortSignal,
): Promise<FoundSymbol> {
  checkSymbolName(name, requested);
  const parsed = await symbolsOf(file, signal);
  if (!parsed) throw new ToolError("invalid", { reason: "no_grammar", path: requested });
  const found = matchSymbols(parsed.symbols, { name });
  if (found.length === 0) throw new ToolError("not_found", { reason: "symbol", path: requested, name });
  if (found.length > 1) {
    const list = found.slice(0, 10).map((f) => `${rangeLabel(f.symbol)} ${f.symbol.kind} ${f.qualified}`);
    throw new ToolError("invalid", {
      reason: "symbol_ambiguous",
      path: requested,
      name,
      actual: found.length,
      items: list,
    });
  }
  return found[0]!;
}

/** The spaces and tabs before a symbol on its first line ("" when code comes before it there). */
function indentAt(text: string, start: number): string {
  const lead = text.slice(text.lastIndexOf("\n", start - 1) + 1, start);
  return /^[ \t]*$/.test(lead) ? lead : "";
}

/**
 * Text to insert beside an indented symbol (a method, a class attribute), when its first line has no
 * indentation of its own: every line indented as the symbol is. Left at the margin, a Python method would end
 * its class (and the next one would nest in it); text that brings its own indentation is kept as given.
 */
function indentedAs(body: string, indent: string): string {
  const lines = linesOf(body);
  const first = lines.find((l) => l.text.trim() !== "");
  if (indent === "" || first === undefined || /^[ \t]/.test(first.text)) return body;
  return lines.map((l) => (l.text.trim() === "" ? l.text : indent + l.text) + l.eol).join("");
}

/**
 * The file's text with the placement applied (offsets are into the text without BOM). A replacement starts
 * where the symbol starts, after its line's indentation: its first line's own leading whitespace is dropped
 * (a copy of read_symbol's lines brings it), the lines after it stand as given.
 */
function applyPlacement(text: string, sym: SymbolNode, p: Placement): string {
  const eol = parseDoc(text).eol;
  const body = toLf(p.text).replace(/\n/g, eol);
  if (p.kind === "replace")
    return (
      text.slice(0, sym.start) + body.replace(/^[ \t]+/, "").replace(/(\r?\n)+$/, "") + text.slice(sym.end)
    );
  const indented = indentedAs(body, indentAt(text, sym.start));
  const block = indented.endsWith(eol) ? indented : indented + eol;
  if (p.kind === "before") {
    const lineStart = text.lastIndexOf("\n", sym.start - 1) + 1;
    return text.slice(0, lineStart) + block + eol + text.slice(lineStart);
  }
  const nl = text.indexOf("\n", sym.end);
  const lineEnd = nl === -1 ? text.length : nl + 1;
  const head = text.slice(0, lineEnd) + (nl === -1 ? eol : "");
  return head + eol + block + text.slice(lineEnd);
}

export async function editSymbol(
  target: ResolvedPath,
  name: string,
  placement: Placement,
  opts: SymbolEditOptions,
): Promise<SymbolEditResult> {
  const file = await readCode(target, opts.encoding, true);
  checkExpected({ requested: target.requested, expected: opts.expectedSha256, current: file.snapshot });
  const found = await oneSymbol(file, target.requested, name, opts.signal);
  const out = applyPlacement(file.text, found.symbol, placement);
  const language = file.language;
  if (language !== undefined && language !== "markdown") {
    const [before, after] = await Promise.all([
      parseErrors(language, file.text, opts.signal),
      parseErrors(language, out, opts.signal),
    ]);
    if (after > before)
      throw new ToolError("invalid", {
        reason: "syntax_errors",
        path: target.requested,
        actual: after,
        expected: before,
      });
  }
  const diff = unifiedDiff(opts.diffName, toLf(file.text), toLf(out));
  if (opts.dryRun || out === file.text) return { diff, written: false, sha256: file.sha256, symbol: found };
  const data = encodeText((file.bom ? "\uFEFF" : "") + out, file.codec, target.requested);
  const [change] = await commitChanges([{ kind: "write", target, data, base: file.snapshot }]);
  return { diff, written: true, sha256: change!.after!, symbol: found, change };
}
