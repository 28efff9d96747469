/**
 * The main thread's side of the document worker: started on the first document (a server that never reads
 * one pays nothing), kept while it answers in time. A call that runs past its time, or a worker that runs out
 * of its memory, ends that worker; the next call starts a new one. It is shared by every connection: it holds
 * no path or permission, only the bytes a caller sent it.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ErrorDetail, type ErrorKind, ToolError } from "../errors.js";
import type { ImageRequest, ImageResult } from "../images/shrink.js";
import type { DocumentRequest, DocumentResponse, DocumentResult, WorkerRequest } from "./protocol.js";

/** The worker's heap: a 10 MB workbook's sheet needs ~300 MB; a hostile file is stopped here. */
const HEAP_MB = 768;

interface Pending {
  resolve(v: DocumentResult | ImageResult): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
  /** The worker it was sent to: a worker's end fails only its own calls. */
  worker: Worker;
  /** The requested path (the worker gets bytes only) and whether it is an image: what a refusal names. */
  path: string;
  image: boolean;
}

/** A refusal of call `p` as data: the worker's (or the pool's own) kind and detail, with the call's path. */
const refusal = (p: Pending, kind: ErrorKind, detail: ErrorDetail) =>
  new ToolError(kind, { ...detail, path: p.path });

/** Beside the bundle, or (unbundled build) the compiled module beside this one. */
function workerFile(): string {
  const bundled = fileURLToPath(new URL("./mcpfs-doc-worker.cjs", import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL("./worker.js", import.meta.url));
}

class DocumentPool {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private start(): Worker {
    // stdout/stderr kept apart: pdf.js warns on console.log, and stdout is the MCP wire.
    const w = new Worker(workerFile(), {
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    });
    w.stdout.resume();
    w.stderr.resume();
    w.on("message", (res: DocumentResponse) => {
      const p = this.settle(res.id);
      if (!p) return;
      if (res.ok) p.resolve(res.value);
      else p.reject(refusal(p, res.kind, res.detail));
    });
    const fail = (err: Error & { code?: string }) => {
      if (this.worker === w) this.worker = undefined;
      const memory = err.code === "ERR_WORKER_OUT_OF_MEMORY";
      for (const [id, p] of [...this.pending])
        if (p.worker === w)
          this.settle(id)?.reject(
            memory
              ? refusal(p, "too_large", { reason: p.image ? "image_memory" : "doc_memory", limit: HEAP_MB })
              : refusal(p, "io", { reason: "doc_reader_stopped", cause: err.message }),
          );
    };
    w.on("error", fail);
    w.on("exit", (code) => fail(new Error(`exit ${code}`)));
    return w;
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (![...this.pending.values()].some((o) => o.worker === p.worker)) p.worker.unref();
    return p;
  }

  /** Ends the worker (a call past its time): every call on it is refused, the next call starts anew. */
  private stop(): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }

  parse(
    req: Omit<WorkerRequest, "id">,
    requested: string,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DocumentResult | ImageResult> {
    this.worker ??= this.start();
    const w = this.worker;
    const id = this.nextId++;
    return new Promise<DocumentResult | ImageResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        const p = this.settle(id);
        p?.reject(
          refusal(p, "too_large", {
            reason: p.image ? "image_timeout" : "doc_timeout",
            limit: timeoutMs / 1000,
          }),
        );
        this.stop();
      }, timeoutMs);
      this.pending.set(id, {
        resolve,
        reject,
        timer,
        worker: w,
        path: requested,
        image: req.kind === "image",
      });
      w.ref();
      w.postMessage({ ...req, id } as WorkerRequest);
      signal?.addEventListener(
        "abort",
        () => {
          if (this.settle(id)) reject(new ToolError("cancelled", { path: requested }));
        },
        { once: true },
      );
    });
  }
}

// Process-wide on purpose: one thread for all connections (see the header).
const pool = new DocumentPool();

/** A document's text; a refusal names `requested` (the path as the client gave it). */
export const parseDocument = (
  req: Omit<DocumentRequest, "id">,
  requested: string,
  timeoutMs: number,
  signal?: AbortSignal,
) => pool.parse(req, requested, timeoutMs, signal) as Promise<DocumentResult>;

/** An image scaled down in the same worker (core/images/), under the same bounds of memory and time. */
export const shrinkInWorker = (
  req: Omit<ImageRequest, "id">,
  requested: string,
  timeoutMs: number,
  signal?: AbortSignal,
) => pool.parse(req, requested, timeoutMs, signal) as Promise<ImageResult>;
