import { decodeXml } from "./xml-text.js";

/**
 * The HTML mammoth writes (headings, paragraphs, lists, tables, emphasis, links) as Markdown lines. Only
 * that small, well-formed vocabulary is handled; other tags are dropped and their text kept.
 */
export function htmlToMarkdown(html: string): string[] {
  const out: string[] = [];
  let line = "";
  let prefix = "";
  const lists: { ordered: boolean; n: number }[] = [];
  let table: string[][] | undefined;
  let row: string[] | undefined;
  let cell: string | undefined;
  let href = "";
  const emit = (s: string) => {
    if (cell !== undefined) cell += s;
    else line += s;
  };
  const flush = (lead = prefix) => {
    const t = line.replace(/\s+/g, " ").trim();
    if (t !== "") out.push(lead + t);
    line = "";
  };
  for (const m of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      emit(decodeXml(m[4]));
      continue;
    }
    const close = m[1] === "/";
    const tag = m[2]!.toLowerCase();
    const heading = /^h([1-6])$/.exec(tag);
    if (heading) {
      if (close) {
        flush(`${"#".repeat(Number(heading[1]))} `);
        blankLine(out);
      } else flush();
    } else if (tag === "p") {
      if (cell !== undefined) {
        if (close) cell += " ";
      } else if (lists.length === 0) {
        flush();
        if (close) blankLine(out);
      }
    } else if (tag === "ul" || tag === "ol") {
      flush();
      if (close) {
        lists.pop();
        if (lists.length === 0) blankLine(out);
      } else lists.push({ ordered: tag === "ol", n: 0 });
      prefix = lists.length > 0 ? "  ".repeat(lists.length) : "";
    } else if (tag === "li") {
      flush();
      const list = lists[lists.length - 1];
      const indent = "  ".repeat(Math.max(0, lists.length - 1));
      if (!close && list) prefix = `${indent}${list.ordered ? `${++list.n}.` : "-"} `;
      else prefix = `${indent}  `;
    } else if (tag === "table" && !close) {
      flush();
      table = [];
    } else if (tag === "table" && table) {
      out.push(...markdownTable(table));
      table = undefined;
      blankLine(out);
    } else if (tag === "tr") {
      if (!close) row = [];
      else if (row) table?.push(row);
    } else if (tag === "td" || tag === "th") {
      if (!close) cell = "";
      else if (cell !== undefined) {
        row?.push(cell.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|"));
        cell = undefined;
      }
    } else if (tag === "strong" || tag === "b") emit("**");
    else if (tag === "em" || tag === "i") emit("_");
    else if (tag === "a") {
      if (!close) {
        href = /href="([^"]*)"/.exec(m[3]!)?.[1] ?? "";
        if (href) emit("[");
      } else if (href) emit(`](${decodeXml(href)})`);
    } else if (tag === "br") emit(cell !== undefined ? "<br>" : " ");
  }
  flush();
  while (out[out.length - 1] === "") out.pop();
  return out;
}

/** One empty line between blocks (none at the start, never two). */
function blankLine(out: string[]): void {
  if (out.length > 0 && out[out.length - 1] !== "") out.push("");
}

function markdownTable(rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  return [line(rows[0]!), `|${" --- |".repeat(width)}`, ...rows.slice(1).map(line)];
}
