import { ToolError } from "../errors.js";
import { pageNumbers } from "./page-spec.js";
import type { DocumentRequest, DocumentResult } from "./protocol.js";

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

/** pdf.js, loaded on the first PDF; its own worker code runs in this thread (this thread is the worker). */
async function pdfjs() {
  const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  return import("pdfjs-dist/legacy/build/pdf.mjs");
}

/** The text of the asked pages of a PDF (at most `maxUnits` of them), a line per text line pdf.js finds. */
export async function readPdf(req: DocumentRequest): Promise<DocumentResult> {
  const lib = await pdfjs();
  let doc: Awaited<ReturnType<typeof lib.getDocument>["promise"]>;
  try {
    doc = await lib.getDocument({
      data: req.data,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    }).promise;
  } catch (err) {
    const name = (err as Error).name;
    if (name === "PasswordException") throw new ToolError("invalid", { reason: "doc_encrypted" });
    throw new ToolError("invalid", { reason: "doc_unreadable", expected: "pdf" });
  }
  try {
    const wanted = pageNumbers(req.pages, doc.numPages);
    const now = wanted.slice(0, req.maxUnits);
    const units = [];
    const noText: number[] = [];
    for (const n of now) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items as TextItem[]) text += (item.str ?? "") + (item.hasEOL ? "\n" : "");
      page.cleanup();
      text = text.replace(/[ \t]+\n/g, "\n").trim();
      if (text === "") noText.push(n);
      units.push({ n, text });
    }
    return { kind: "pdf", total: doc.numPages, units, rest: wanted.slice(now.length), noText };
  } finally {
    await doc.destroy();
  }
}
