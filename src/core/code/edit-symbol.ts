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
import { parseErrors, parseLead } from "./parser-pool.js";
import { type CodeFile, type CodeText, readCode, symbolsOf } from "./source.js";
import { checkSymbolName, type FoundSymbol, flatten, matchSymbols } from "./symbols.js";

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

/** `name@L12`: the symbol of that name starting on line 12 (how same-named symbols are told apart). */
const AT_LINE = /^(.*\S)@L(\d+)$/;

/** The one symbol `name` designates in a file, or a refusal that lists the candidates. */
export async function oneSymbol(
  file: CodeText,
  requested: string,
  name: string,
  signal?: AbortSignal,
): Promise<FoundSymbol> {
  const at = AT_LINE.exec(name);
  const bare = at ? at[1]! : name;
  checkSymbolName(bare, requested);
  const parsed = await symbolsOf(file, signal);
  if (!parsed) throw new ToolError("invalid", { reason: "no_grammar", path: requested });
  const named = matchSymbols(parsed.symbols, { name: bare });
  const found = at ? named.filter((f) => f.symbol.startLine === Number(at[2])) : named;
  if (found.length === 0) throw new ToolError("not_found", { reason: "symbol", path: requested, name });
  if (found.length > 1) {
    const list = found.slice(0, 10).map((f) => `${rangeLabel(f.symbol)} ${f.symbol.kind} ${f.qualified}`);
    throw new ToolError("invalid", {
      reason: "symbol_ambiguous",
      path: requested,
      name: bare,
      actual: found.length,
      items: list,
      expected: `${bare}@L${found[0]!.symbol.startLine}`,
    });
  }
  return found[0]!;
}

/** The symbols declared by the same text as `one` (Java's `String name, region;`): a replacement takes all. */
function sharing(all: readonly SymbolNode[], one: SymbolNode): string[] {
  return flatten(all)
    .filter((f) => f.symbol !== one && f.symbol.start === one.start && f.symbol.end === one.end)
    .map((f) => f.symbol.name);
}

/** What precedes a symbol on its first line: the indentation, then any code (Ruby's `private `). */
function lineHead(text: string, start: number): { indent: string; code: string } {
  const head = text.slice(text.lastIndexOf("\n", start - 1) + 1, start);
  const indent = /^[ \t]*/.exec(head)![0];
  return { indent, code: head.slice(indent.length) };
}

/**
 * `body` (written from the margin) indented as a symbol whose line starts with `indent`: each line after the
 * first (`skipFirst`) or every line gets `indent`; in a file indented with tabs, the text's own space
 * indentation becomes tabs (its smallest step is one tab).
 */
function indentedAs(body: string, indent: string, skipFirst: boolean): string {
  const lines = linesOf(body);
  const spaces = lines.map((l) => /^ */.exec(l.text)![0].length).filter((n) => n > 0);
  const step = /^\t+$/.test(indent) && spaces.length > 0 ? Math.min(...spaces) : 0;
  return lines
    .map((l, i) => {
      if (l.text.trim() === "" || (skipFirst && i === 0)) return l.text + l.eol;
      const own = /^ */.exec(l.text)![0].length;
      const lead =
        step > 0 ? "\t".repeat(Math.floor(own / step)) + " ".repeat(own % step) : l.text.slice(0, own);
      return indent + lead + l.text.slice(own) + l.eol;
    })
    .join("");
}

/** The kind of a line that opens a doc comment or an attribute: `//`, `/*`, `#[`, `#`, `@`, `[` or none. */
function attachmentOf(line: string): string | undefined {
  return /^(\/\/|\/\*|#\[|#|@|\[)/.exec(line.trimStart())?.[1];
}

/**
 * The texts a replacement may mean, most likely first. Its first line starts where the symbol starts: that
 * line's own indentation, and the code before the symbol on its line when repeated (a copy of read_symbol's
 * lines brings both), are dropped. Lines after it stand as given when every one keeps the symbol's
 * indentation (a copy of the file's lines); written from the margin (some line left of the symbol), they are
 * indented as the symbol is. Text from the margin whose lines all happen to sit at the symbol's depth (a
 * Python body one level in) is ambiguous: the indented reading comes second, taken when the first does not
 * parse.
 */
function replacements(text: string, sym: SymbolNode, body: string): string[] {
  const { indent, code } = lineHead(text, sym.start);
  let first = body.replace(/(\r?\n)+$/, "");
  const fromMargin = !/^[ \t]/.test(first);
  first = first.replace(/^[ \t]+/, "");
  if (code !== "" && first.startsWith(code)) first = first.slice(code.length);
  const later = linesOf(first)
    .slice(1)
    .filter((l) => l.text.trim() !== "");
  if (!fromMargin || indent === "" || later.length === 0) return [first];
  const indented = indentedAs(first, indent, true);
  return later.some((l) => !l.text.startsWith(indent)) ? [indented] : [first, indented];
}

/**
 * The file's text with the placement applied, one version per reading of the text (`replacements`); offsets
 * are into the text without BOM. `lead` is where the symbol starts with its doc comment and attributes:
 * text inserted before goes above them, and a replacement that brings its own replaces them.
 */
function applyPlacement(text: string, sym: SymbolNode, p: Placement, lead: number): string[] {
  const eol = parseDoc(text).eol;
  const body = toLf(p.text).replace(/\n/g, eol);
  if (p.kind === "replace") {
    const attached = text.slice(lead, sym.start);
    return replacements(text, sym, body).map((t) => {
      const from = lead < sym.start && attachmentOf(t) === attachmentOf(attached) ? lead : sym.start;
      return text.slice(0, from) + t + text.slice(sym.end);
    });
  }
  const { indent } = lineHead(text, sym.start);
  const first = linesOf(body).find((l) => l.text.trim() !== "");
  const indented = first && !/^[ \t]/.test(first.text) ? indentedAs(body, indent, false) : body;
  const block = indented.endsWith(eol) ? indented : indented + eol;
  if (p.kind === "before") {
    const lineStart = text.lastIndexOf("\n", lead - 1) + 1;
    return [text.slice(0, lineStart) + block + eol + text.slice(lineStart)];
  }
  const nl = text.indexOf("\n", sym.end);
  const lineEnd = nl === -1 ? text.length : nl + 1;
  const head = text.slice(0, lineEnd) + (nl === -1 ? eol : "");
  return [head + eol + block + text.slice(lineEnd)];
}

/** The first version that adds no syntax error to the file, or the refusal of the first version. */
async function parsingVersion(file: CodeFile, versions: string[], signal?: AbortSignal): Promise<string> {
  const reading = file.language;
  if (reading === undefined || reading === "markdown") return versions[0]!;
  const before = await parseErrors(reading, file.text, signal);
  let refusal: number | undefined;
  for (const v of versions) {
    const after = await parseErrors(reading, v, signal);
    if (after <= before) return v;
    refusal ??= after;
  }
  throw new ToolError("invalid", {
    reason: "syntax_errors",
    path: file.target.requested,
    actual: refusal,
    expected: before,
  });
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
  if (placement.kind === "replace") {
    const others = sharing((await symbolsOf(file, opts.signal))?.symbols ?? [], found.symbol);
    if (others.length > 0)
      throw new ToolError("invalid", {
        reason: "symbol_shared",
        path: target.requested,
        name: found.symbol.name,
        actual: found.symbol.startLine,
        items: others,
      });
  }
  const reading = file.language;
  const lead =
    reading === undefined || reading === "markdown"
      ? found.symbol.start
      : await parseLead(reading, file.text, file.sha256, found.symbol.start, opts.signal);
  const out = await parsingVersion(
    file,
    applyPlacement(file.text, found.symbol, placement, lead),
    opts.signal,
  );
  const diff = unifiedDiff(opts.diffName, toLf(file.text), toLf(out));
  if (opts.dryRun || out === file.text) return { diff, written: false, sha256: file.sha256, symbol: found };
  const data = encodeText((file.bom ? "\uFEFF" : "") + out, file.codec, target.requested);
  const [change] = await commitChanges([{ kind: "write", target, data, base: file.snapshot }]);
  return { diff, written: true, sha256: change!.after!, symbol: found, change };
}
