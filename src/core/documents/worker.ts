/**
 * The document worker: parses one document per request (PDF, .docx, spreadsheets, .pptx), or scales down
 * one image (core/images/), from bytes the
 * main thread read through the path gate; this thread never opens a workspace file. Each parser loads on its
 * first use. The main thread bounds this thread's memory and time (pool.ts).
 */
import { parentPort } from "node:worker_threads";
import type { ImageResult } from "../images/shrink.js";
import { DocError } from "./doc-error.js";
import type { DocumentRequest, DocumentResponse, DocumentResult, WorkerRequest } from "./protocol.js";

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

/** An image to scale down (core/images/shrink.ts), loaded on the first one. */
const shrink = async (req: WorkerRequest): Promise<DocumentResult | ImageResult> =>
  req.kind === "image" ? (await import("../images/shrink.js")).shrinkImage(req) : parse(req);

parentPort?.on("message", async (req: WorkerRequest) => {
  let res: DocumentResponse;
  try {
    res = { id: req.id, ok: true, value: await shrink(req) };
  } catch (err) {
    res =
      err instanceof DocError
        ? { id: req.id, ok: false, reason: err.reason, message: err.message, encoding: err.encoding }
        : { id: req.id, ok: false, reason: "invalid", message: "it could not be parsed (corrupt?)" };
  }
  parentPort?.postMessage(res);
});
