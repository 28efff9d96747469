import { constants } from "node:fs";
import path from "node:path";
import { ToolError } from "../errors.js";
import { openVerified } from "../fs/safe-open.js";
import { explained } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";
import { parseDocument } from "./pool.js";
import type { DocumentKind, DocumentResult } from "./protocol.js";

/** The bounds of one document read (each a cap against hostile files, not a typical size). */
export const DOCUMENT_LIMITS = {
  /** The file itself. */
  maxFileBytes: 64 * 1024 * 1024,
  /** All the entries of a zip container (.docx, .xlsx, .ods, .pptx), inflated. */
  maxInflated: 256 * 1024 * 1024,
  /** Pages or slides parsed per call (the reply's budget usually stops earlier). */
  maxPages: 50,
  /** Sheet rows or Markdown lines per call. */
  maxRows: 5000,
  /** Time per call; the worker is ended past it. */
  timeoutMs: 30_000,
};

const KINDS: Record<string, DocumentKind> = {
  ".pdf": "pdf",
  ".docx": "docx",
  ".xlsx": "sheet",
  ".xlsm": "sheet",
  ".ods": "sheet",
  ".csv": "sheet",
  ".tsv": "sheet",
  ".pptx": "pptx",
};

export interface DocumentAsk {
  pages?: string;
  sheet?: string;
  range?: string;
  /** A text document (.csv, .tsv) that is not UTF-8 is read in this encoding (the decode policy). */
  encoding?: string;
}

async function readBytes(target: ResolvedPath): Promise<Buffer> {
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    if (st.size > DOCUMENT_LIMITS.maxFileBytes)
      throw new ToolError("too_large", {
        reason: "document",
        path: target.requested,
        actual: st.size,
        limit: DOCUMENT_LIMITS.maxFileBytes,
      });
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * A document's text, parsed off the main thread: a PDF's pages, a .docx's Markdown, a sheet's rows, a
 * .pptx's slides, as asked (see `DocumentAsk`), within `DOCUMENT_LIMITS`.
 */
export async function readDocument(
  target: ResolvedPath,
  ask: DocumentAsk,
  signal?: AbortSignal,
): Promise<DocumentResult> {
  const ext = path.extname(target.real).toLowerCase();
  const data = await readBytes(target);
  const kind = KINDS[ext] ?? (data.subarray(0, 5).toString("latin1") === "%PDF-" ? "pdf" : undefined);
  if (kind === undefined) throw new ToolError("invalid", { reason: "doc_type", path: target.requested });
  const maxUnits = kind === "pdf" || kind === "pptx" ? DOCUMENT_LIMITS.maxPages : DOCUMENT_LIMITS.maxRows;
  try {
    return await parseDocument(
      { kind, ext, data, ...ask, maxUnits, maxInflated: DOCUMENT_LIMITS.maxInflated },
      target.requested,
      DOCUMENT_LIMITS.timeoutMs,
      signal,
    );
  } catch (err) {
    // A text document (.csv) not valid in its encoding: the reads' refusal, with its likely encodings.
    throw await explained(err, data, target.requested);
  }
}
