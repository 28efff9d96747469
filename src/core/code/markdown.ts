/**
 * Markdown outlines by its headings as CommonMark reads them, through markdown-it's block parser: ATX
 * (`#`…) and setext (a paragraph underlined with `===` or `---`) headings, in block quotes and list items
 * too (they render as headings there), never inside code (fenced or indented), an HTML block or the front
 * matter. A heading's section ends before the next heading of its level or higher. Runs in the parser
 * worker: the block parser reads 6-14 MiB/s of prose on the 2-core machine (2 MiB of the dependencies'
 * docs: 140-350 ms; a file of nothing but setext headings, 0.7 MiB/s), which would hold every connection's
 * calls on the main thread.
 */

import type { MarkdownIt } from "markdown-it";
import { lfPieces } from "../text/lines.js";
import type { SymbolNode } from "./extract.js";

let blockParser: Promise<MarkdownIt> | undefined;

/**
 * markdown-it without its inline pass (emphasis, links, entities): a heading's place and level are block
 * structure, and its raw text is the name a caller types. Loaded on the first Markdown file.
 */
function parser(): Promise<MarkdownIt> {
  blockParser ??= import("markdown-it").then(({ default: Markdown }) =>
    new Markdown("commonmark").disable(["inline", "text_join"]),
  );
  return blockParser;
}

/**
 * How many lines of front matter open the file: metadata between `---` lines (YAML; `...` also closes it) or
 * `+++` lines (TOML) from the first line on, as GitHub, Jekyll and Hugo read it; 0 when it is not closed.
 */
function frontMatterLines(lines: readonly string[]): number {
  const fence = lines[0]?.trimEnd();
  if (fence !== "---" && fence !== "+++") return 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line === fence || (fence === "---" && line === "...")) return i + 1;
  }
  return 0;
}

interface Heading {
  /** 0-based line where the heading starts (a setext heading's first paragraph line). */
  line: number;
  level: number;
  title: string;
}

/** The headings of `text` from its line `skipped` on (0-based; `lineStarts`: each line's offset). */
async function headingsOf(text: string, lineStarts: readonly number[], skipped: number): Promise<Heading[]> {
  // markdown-it also ends a line at a lone CR, no line break to mcpfs: a space keeps the line counts equal.
  const body = text.slice(lineStarts[skipped] ?? text.length).replace(/\r(?!\n)/g, " ");
  const tokens = (await parser()).parse(body, {});
  const out: Heading[] = [];
  tokens.forEach((t, i) => {
    if (t.type !== "heading_open" || !t.map) return;
    // A setext heading's text keeps its paragraph's line breaks: the name is one line.
    const title = (tokens[i + 1]?.content ?? "").replace(/[ \t]*\n[ \t]*/g, " ");
    out.push({ line: skipped + t.map[0], level: Number(t.tag.slice(1)), title });
  });
  return out;
}

export async function markdownSymbols(text: string): Promise<SymbolNode[]> {
  const lines = lfPieces(text);
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const top: SymbolNode[] = [];
  const open: { level: number; sym: SymbolNode }[] = [];
  const close = (level: number, lastLine: number, end: number) => {
    while (open.length > 0 && open[open.length - 1]!.level >= level) {
      const { sym } = open.pop()!;
      sym.endLine = Math.max(sym.startLine, lastLine);
      sym.end = end;
    }
  };
  for (const { line, level, title } of await headingsOf(text, lineStarts, frontMatterLines(lines))) {
    const start = lineStarts[line]!;
    close(level, line, start);
    const sym: SymbolNode = {
      name: title,
      kind: "heading",
      startLine: line + 1,
      endLine: line + 1,
      start,
      end: start,
      signature: `${"#".repeat(level)} ${title}`.trimEnd(),
      children: [],
    };
    (open.length > 0 ? open[open.length - 1]!.sym.children : top).push(sym);
    open.push({ level, sym });
  }
  const lastLine = text.endsWith("\n") ? lines.length - 1 : lines.length;
  close(0, lastLine, text.length);
  return top;
}
