/** The messages between the main thread (`pool.ts`) and the document worker (`worker.ts`). */
import type { ErrorDetail, ErrorKind } from "../errors.js";
import type { ImageRequest, ImageResult } from "../images/shrink.js";

export type DocumentKind = "pdf" | "docx" | "sheet" | "pptx";

export interface DocumentRequest {
  id: number;
  kind: DocumentKind;
  /** The file's bytes (read by the main thread through the path gate; the worker opens no file). */
  data: Uint8Array;
  /** The file name's extension, lower case (".xlsx", ".ods", ".csv", …). */
  ext: string;
  /** PDF pages or slides: "3-5,9" (default: from the first). */
  pages?: string;
  /** Spreadsheets: a sheet name or 1-based number (default: the first). */
  sheet?: string;
  /** Spreadsheets: a cell range "B2:F40"; .docx: Markdown lines "120-240". */
  range?: string;
  /** Most pages, slides or rows parsed in one call. */
  maxUnits: number;
  /** Most bytes a zip container may inflate to, all entries together. */
  maxInflated: number;
  /** Text documents (.csv, .tsv) that are not UTF-8: the encoding to read them in (the decode policy's). */
  encoding?: string;
}

/** One page, slide or run of Markdown or table lines. */
export interface DocumentUnit {
  /** 1-based page or slide number; for .docx and sheets, the first line or row number. */
  n: number;
  text: string;
}

export interface DocumentResult {
  kind: DocumentKind;
  /** Pages or slides in the document; lines of the Markdown; rows of the sheet's used range. */
  total: number;
  units: DocumentUnit[];
  /** Unit numbers asked for that were not parsed (the cap on units): the continuation starts there. */
  rest: number[];
  /** Sheets: every sheet's name, the one shown, its used range and the columns shown. */
  sheets?: string[];
  sheet?: string;
  usedRange?: string;
  /** Sheets: the first and last column letters shown (to name the next range). */
  columns?: [string, string];
  /** Pages without a text layer among those parsed. */
  noText?: number[];
}

/** What the worker is asked: a document's text, or an image scaled to fit (core/images/). */
export type WorkerRequest = DocumentRequest | ImageRequest;

export type DocumentResponse =
  | { id: number; ok: true; value: DocumentResult | ImageResult }
  /** A refusal as data: a ToolError's kind and detail (without the path: the worker gets bytes only). */
  | { id: number; ok: false; kind: ErrorKind; detail: ErrorDetail };
