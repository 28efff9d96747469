import { zipSync } from "fflate";
import { ToolError } from "../errors.js";
import { htmlToMarkdown } from "./html-markdown.js";
import type { DocumentRequest, DocumentResult } from "./protocol.js";
import { unzipBounded } from "./zip.js";

/** Lines "120-240" or "120-" of the Markdown (1-based); all by default. */
function lineWindow(spec: string | undefined, total: number): [number, number] {
  if (spec === undefined || spec.trim() === "") return [1, total];
  const m = /^\s*(\d+)\s*(?:-\s*(\d*)\s*)?$/.exec(spec);
  if (!m || Number(m[1]) < 1)
    throw new ToolError("invalid", {
      reason: "doc_spec",
      parameter: "range",
      actual: spec,
      expected: "lines",
    });
  const from = Number(m[1]);
  return [from, m[2] === undefined ? from : m[2] ? Number(m[2]) : total];
}

/**
 * A .docx as Markdown through mammoth (headings by style, lists, tables, emphasis, links; images left out).
 * mammoth inflates with its own zip library, which has no size bound: it is handed the parts re-packed
 * uncompressed after the bounded inflate, so a zip bomb is refused first.
 */
export async function readDocx(req: DocumentRequest): Promise<DocumentResult> {
  const parts = unzipBounded(req.data, (n) => !/^word\/media\//.test(n), req.maxInflated);
  if (!parts.has("word/document.xml"))
    throw new ToolError("invalid", { reason: "doc_unreadable", expected: "docx" });
  const stored = zipSync(Object.fromEntries(parts), { level: 0 });
  const mammoth = await import("mammoth");
  let html: string;
  try {
    html = (
      await mammoth.convertToHtml(
        { buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) },
        { convertImage: mammoth.images.imgElement(async () => ({ src: "" })) },
      )
    ).value;
  } catch {
    throw new ToolError("invalid", { reason: "doc_unreadable", expected: "docx" });
  }
  const lines = htmlToMarkdown(html);
  const [from, to] = lineWindow(req.range, lines.length);
  const last = Math.min(to, lines.length, from + req.maxUnits - 1);
  const units = lines.slice(from - 1, last).map((text, i) => ({ n: from + i, text }));
  const end = Math.min(to, lines.length);
  return { kind: "docx", total: lines.length, units, rest: last < end ? [last + 1, end] : [] };
}
