/**
 * read_document for both surfaces: each surface's file declares the path parameter with its own rules and
 * calls `readDocumentReply`. Parsing is in core/documents/ (off the main thread); this is the formatter.
 */
import { z } from "zod";
import { ReplyBudget } from "../core/budget.js";
import { pageSpec } from "../core/documents/page-spec.js";
import type { DocumentResult } from "../core/documents/protocol.js";
import { readDocument } from "../core/documents/read.js";
import type { ResolvedPath } from "../core/workspace.js";
import { encodingFor, type ToolContext } from "./tool.js";

export const documentTitle = "Read Document";

export const documentDescription =
  "Text of a PDF (per page), .docx (Markdown), .xlsx/.ods/.csv sheet (Markdown table) or .pptx (per slide). Page over long ones as the reply's last line says.";

export const documentParams = {
  pages: z.string().optional().describe('PDF pages or slides, e.g. "3-5,9" (default: from the first)'),
  sheet: z.string().optional().describe("Sheet name or number (default: the first)"),
  range: z.string().optional().describe('Cell range "A1:F40" of a sheet; lines "120-240" of a .docx'),
  maxChars: z.number().int().positive().optional().describe("Most characters returned"),
};

export const documentFields = {
  kind: z.enum(["pdf", "docx", "sheet", "pptx"]),
  total: z.number().describe("pages, slides, Markdown lines or sheet rows in all"),
  next: z.string().optional().describe("the pages or range to ask for next; absent when all was shown"),
  sheets: z.array(z.string()).optional(),
  sheet: z.string().optional(),
  usedRange: z.string().optional().describe("the sheet's cells in use"),
  noTextPages: z.array(z.number()).optional().describe("pages without a text layer (scanned)"),
  truncated: z.boolean().optional(),
};

export interface DocumentArgs {
  pages?: string;
  sheet?: string;
  range?: string;
  maxChars?: number;
}

export interface DocumentReply {
  text: string;
  fields: Record<string, unknown>;
}

const NO_TEXT = "[no text layer: a scanned or image-only page; mcpfs does no OCR]";

/** A page's or slide's block of text, with its heading. */
function unitBlock(r: DocumentResult, n: number, text: string): string {
  const what = r.kind === "pdf" ? "page" : "slide";
  const body = text !== "" ? text : r.kind === "pdf" ? NO_TEXT : "(no text)";
  return `--- ${what} ${n} of ${r.total} ---\n${body}`;
}

const NOUNS = { pdf: "pages", pptx: "slides", docx: "lines", sheet: "rows" } as const;

const more = (what: string, next: string) => `\n[mcpfs: ${what}. Continue with ${next}.]`;

/** What the next call asks for, from the first unit not shown (`from`) and what was left unparsed. */
function nextAsk(r: DocumentResult, from: number | undefined, sheetArg: string): string | undefined {
  if (r.kind === "pdf" || r.kind === "pptx") {
    const left = [...(from === undefined ? [] : r.units.slice(from).map((u) => u.n)), ...r.rest];
    return left.length > 0 ? `pages="${pageSpec(left)}"` : undefined;
  }
  const start = from !== undefined && from < r.units.length ? r.units[from]!.n : r.rest[0];
  if (start === undefined) return undefined;
  const end = r.rest[1] ?? r.units[r.units.length - 1]!.n;
  if (r.kind === "docx") return `range="${start}-${end}"`;
  const [c1, c2] = r.columns!;
  return `${sheetArg}range="${c1}${start}:${c2}${end}"`;
}

/** The lines before the units: a sheet's name, used range and table head. */
function head(r: DocumentResult): string[] {
  if (r.kind !== "sheet") return [];
  const others = r.sheets!.length > 1 ? `; sheets: ${r.sheets!.join(", ")}` : "";
  if (r.units.length === 0) return [`Sheet "${r.sheet}" is empty${others}.`];
  const [c1, c2] = r.columns!;
  const first = r.units[0]!.n;
  const last = r.units[r.units.length - 1]!.n;
  const cols: string[] = [];
  for (let c = c1!; ; c = nextColumn(c)) {
    cols.push(c);
    if (c === c2 || cols.length > 16384) break;
  }
  return [
    `Sheet "${r.sheet}", used range ${r.usedRange}${others}; cells ${c1}${first}:${c2}${last}:`,
    `| row | ${cols.join(" | ")} |`,
    `|---|${" --- |".repeat(cols.length)}`,
  ];
}

function nextColumn(col: string): string {
  const chars = col.split("");
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== "Z") {
      chars[i] = String.fromCharCode(chars[i]!.charCodeAt(0) + 1);
      return chars.join("");
    }
    chars[i] = "A";
  }
  return `A${chars.join("")}`;
}

/**
 * Reads a document and fits it to the reply: whole pages, slides, lines or rows while they fit (a first one
 * too long for the reply is cut at a line), then a note naming the pages or range to ask for next.
 */
export async function readDocumentReply(
  ctx: ToolContext,
  target: ResolvedPath,
  a: DocumentArgs,
): Promise<DocumentReply> {
  const r = await readDocument(target, { ...a, encoding: encodingFor(ctx, undefined) }, ctx.signal);
  const b = a.maxChars ? new ReplyBudget(Math.min(ctx.budget.remaining, a.maxChars)) : ctx.budget;
  const byPage = r.kind === "pdf" || r.kind === "pptx";
  const blocks = byPage ? r.units.map((u) => unitBlock(r, u.n, u.text)) : r.units.map((u) => u.text);
  const sheetArg = r.kind === "sheet" ? `sheet="${r.sheet}", ` : "";
  const asked = r.units.length + (byPage ? r.rest.length : restCount(r));
  const cutWide = `; ${byPage ? "page" : "line"} ${r.total} was cut at the reply's size`;
  // The note at its widest: every count at its largest, the next ask from the first unit (a subset of
  // pages can be named by a longer list: "1,3,5" vs "1-3,5", hence the slack).
  const close = b.reserve(
    `${more(`showing ${asked} of ${asked} ${NOUNS[r.kind]}${cutWide}`, nextAsk(r, 0, sheetArg) ?? "")}${" ".repeat(16)}`,
  );
  const lines = head(r);
  b.takeLines(lines);
  const sep = byPage ? "\n\n" : "\n";
  let shown = 0;
  let body = "";
  while (shown < blocks.length && b.take((shown > 0 ? sep : "") + blocks[shown]!)) {
    body += (shown > 0 ? sep : "") + blocks[shown];
    shown++;
  }
  let cutNote = "";
  if (shown === 0 && blocks.length > 0) {
    body = b.cut(blocks[0]!, true).text;
    cutNote = `; ${byPage ? "page" : "line"} ${r.units[0]!.n} was cut at the reply's size`;
    shown = 1;
  }
  const next = nextAsk(r, shown < r.units.length ? shown : undefined, sheetArg);
  const what = `showing ${shown} of ${asked} ${NOUNS[r.kind]}${cutNote}`;
  const text = [...lines, body].filter((t) => t !== "").join("\n") + close(next ? more(what, next) : "");
  return {
    text,
    fields: {
      kind: r.kind,
      total: r.total,
      ...(next ? { next, truncated: true } : {}),
      ...(r.sheets ? { sheets: r.sheets, sheet: r.sheet, usedRange: r.usedRange } : {}),
      ...(r.noText && r.noText.length > 0 ? { noTextPages: r.noText } : {}),
    },
  };
}

/** Lines or rows asked for beyond those parsed ([first, last] in `rest`). */
const restCount = (r: DocumentResult) => (r.rest.length === 2 ? r.rest[1]! - r.rest[0]! + 1 : 0);
