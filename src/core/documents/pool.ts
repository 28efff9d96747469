/**
 * The main thread's side of the document worker: started on the first document (a server that never reads
 * one pays nothing), kept while it answers in time. A call that runs past its time, or a worker that runs out
 * of its memory, ends that worker; the next call starts a new one. It is shared by every connection: it holds
 * no path or permission, only the bytes a caller sent it.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ToolError } from "../errors.js";
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
}

/** Beside the bundle, or (unbundled build) the compiled module beside this one. */
function workerFile(): string {
  const bundled = fileURLToPath(new URL("./mcpfs-doc-worker.cjs", import.meta.url));
  return existsSync(bundled) ? bundled : fileURLToPath(new URL("./worker.js", import.meta.url));
}

export interface Refusal {
  reason: "encrypted" | "invalid" | "too_large" | "bad_request" | "timeout" | "memory" | "not_utf8";
  message: string;
  /** `not_utf8`: the encoding the text was not valid in ("utf-8": none was named). */
  encoding?: string;
}

/** A parse that failed for a reason the caller words (with the path). */
export class DocumentRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
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
      else
        p.reject(new DocumentRefused({ reason: res.reason, message: res.message, encoding: res.encoding }));
    });
    const fail = (err: Error & { code?: string }) => {
      if (this.worker === w) this.worker = undefined;
      const memory = err.code === "ERR_WORKER_OUT_OF_MEMORY";
      for (const [id, p] of [...this.pending])
        if (p.worker === w)
          this.settle(id)?.reject(
            memory
              ? new DocumentRefused({ reason: "memory", message: `parsing it needs more than ${HEAP_MB} MB` })
              : new ToolError(`The document reader stopped: ${err.message}`, "io"),
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
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<DocumentResult | ImageResult> {
    this.worker ??= this.start();
    const w = this.worker;
    const id = this.nextId++;
    return new Promise<DocumentResult | ImageResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id)?.reject(
          new DocumentRefused({
            reason: "timeout",
            message: `parsing it took longer than ${timeoutMs / 1000} s`,
          }),
        );
        this.stop();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer, worker: w });
      w.ref();
      w.postMessage({ ...req, id } as WorkerRequest);
      signal?.addEventListener(
        "abort",
        () => {
          if (this.settle(id)) reject(new ToolError("Cancelled", "cancelled"));
        },
        { once: true },
      );
    });
  }
}

// Process-wide on purpose: one thread for all connections (see the header).
const pool = new DocumentPool();

export const parseDocument = (req: Omit<DocumentRequest, "id">, timeoutMs: number, signal?: AbortSignal) =>
  pool.parse(req, timeoutMs, signal) as Promise<DocumentResult>;

/** An image scaled down in the same worker (core/images/), under the same bounds of memory and time. */
export const shrinkInWorker = (req: Omit<ImageRequest, "id">, timeoutMs: number, signal?: AbortSignal) =>
  pool.parse(req, timeoutMs, signal) as Promise<ImageResult>;
