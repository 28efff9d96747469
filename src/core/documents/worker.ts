/**
 * The document worker: parses one document per request (PDF, .docx, spreadsheets, .pptx) from bytes the
 * main thread read through the path gate; this thread never opens a workspace file. Each parser loads on its
 * first use. The main thread bounds this thread's memory and time (pool.ts).
 */
import { parentPort } from "node:worker_threads";
import { DocError } from "./doc-error.js";
import type { DocumentRequest, DocumentResponse, DocumentResult } from "./protocol.js";

async function parse(req: DocumentRequest): Promise<DocumentResult> {
  switch (req.kind) {
    case "pdf":
      return (await import("./pdf.js")).readPdf(req);
    case "docx":
      return (await import("./docx.js")).readDocx(req);
    case "sheet":
      return (await import("./sheets.js")).readSheet(req);
    case "pptx":
      return (await import("./slides.js")).readSlides(req);
  }
}

parentPort?.on("message", async (req: DocumentRequest) => {
  let res: DocumentResponse;
  try {
    res = { id: req.id, ok: true, value: await parse(req) };
  } catch (err) {
    res =
      err instanceof DocError
        ? { id: req.id, ok: false, reason: err.reason, message: err.message }
        : { id: req.id, ok: false, reason: "invalid", message: "it could not be parsed (corrupt?)" };
  }
  parentPort?.postMessage(res);
});
