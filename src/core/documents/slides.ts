import { ToolError } from "../errors.js";
import { pageNumbers } from "./page-spec.js";
import type { DocumentRequest, DocumentResult } from "./protocol.js";
import { attr, relationships, SLIDE_TEXT, textsOf } from "./xml-text.js";
import { entryText, unzipBounded } from "./zip.js";

/** A .pptx's text per slide, in the presentation's order: each paragraph of each shape on its own line. */
export function readSlides(req: DocumentRequest): DocumentResult {
  const files = unzipBounded(req.data, (n) => n.endsWith(".xml") || n.endsWith(".rels"), req.maxInflated);
  const presentation = entryText(files, "ppt/presentation.xml");
  if (presentation === undefined)
    throw new ToolError("invalid", { reason: "doc_unreadable", expected: "pptx" });
  const rels = relationships(entryText(files, "ppt/_rels/presentation.xml.rels"), "ppt/");
  const order: string[] = [];
  for (const m of presentation.matchAll(/<p:sldId\b([^>]*)\/?>/g)) {
    const target = rels.get(attr(m[1]!, "r:id") ?? "");
    if (target) order.push(target);
  }
  const wanted = pageNumbers(req.pages, order.length);
  const now = wanted.slice(0, req.maxUnits);
  const units = now.map((n) => {
    const xml = entryText(files, order[n - 1]!) ?? "";
    const paragraphs = [...xml.matchAll(/<a:p>([\s\S]*?)<\/a:p>|<a:p\s[^>]*>([\s\S]*?)<\/a:p>/g)]
      .map((m) => textsOf(m[1] ?? m[2]!, SLIDE_TEXT).trim())
      .filter((t) => t !== "");
    return { n, text: paragraphs.join("\n") };
  });
  return { kind: "pptx", total: order.length, units, rest: wanted.slice(now.length) };
}
