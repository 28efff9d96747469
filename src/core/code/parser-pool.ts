/**
 * The main thread's side of the parser workers: up to two per process, the first started on the first parse
 * (a server that never parses pays nothing), the second only by a tree-wide tool (`warmParser`), each held
 * only while requests are pending. They are shared by every connection: they hold no path or permission,
 * only results keyed by content that a caller sent them.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { onAbort } from "../concurrency.js";
import { ToolError } from "../errors.js";
import type { GrammarId } from "./languages.js";
import type {
  MapResult,
  OccurrencesResult,
  ParseRequest,
  ParseResponse,
  SymbolsResult,
  UsesResult,
} from "./protocol.js";

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** Where the worker and the grammars are: beside the bundle, or (unbundled build) in node_modules. */
function locate(): { worker: string; grammarDir: string } {
  const bundled = fileURLToPath(new URL("./mcpfs-code-worker.cjs", import.meta.url));
  if (existsSync(bundled))
    return { worker: bundled, grammarDir: fileURLToPath(new URL("./grammars/", import.meta.url)) };
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "node_modules", "@vscode", "tree-sitter-wasm", "wasm");
    if (existsSync(candidate))
      return { worker: fileURLToPath(new URL("./worker.js", import.meta.url)), grammarDir: candidate };
    const up = path.dirname(dir);
    if (up === dir) throw new ToolError("invalid", { reason: "parser_missing" });
    dir = up;
  }
}

/**
 * Workers a tree-wide tool uses. The worker is the critical path of a directory outline or a repository map
 * (the main thread, which walks, reads and prints, is idle two thirds of that time), so a second one halves
 * it on a machine with two cores; a third gained little over the main thread's share and costs another
 * runtime and set of grammars in memory (about 10 MiB each).
 */
const SLOTS = Math.min(2, availableParallelism());

/** One worker, and the grammars it was asked to load. */
class Slot {
  worker: Worker | undefined;
  warmed = new Set<GrammarId>();
  readonly pending = new Map<number, Pending>();

  get started(): boolean {
    return this.worker !== undefined;
  }

  ensure(): Worker {
    if (this.worker) return this.worker;
    this.warmed = new Set();
    const { worker, grammarDir } = locate();
    // A small young generation: the worker's garbage (nodes, texts received) dies young, and a large one
    // only raised the server's RSS (by ~25 MiB over a tree-wide search of the bench's 100k-file monorepo).
    const w = new Worker(worker, {
      workerData: { grammarDir },
      resourceLimits: { maxYoungGenerationSizeMb: 2 },
    });
    w.on("message", (answers: ParseResponse[]) => {
      for (const res of answers) {
        const p = this.pending.get(res.id);
        if (!p) continue;
        this.pending.delete(res.id);
        if (res.ok) p.resolve(JSON.parse(res.json));
        else p.reject(new ToolError("invalid", { reason: "parse_failed", cause: res.cause }));
      }
      if (this.pending.size === 0) w.unref();
    });
    const fail = (err: Error) => {
      if (this.worker === w) this.worker = undefined;
      for (const p of this.pending.values())
        p.reject(new ToolError("io", { reason: "parser_stopped", cause: err.message }));
      this.pending.clear();
    };
    w.on("error", fail);
    w.on("exit", (code) => fail(new Error(`exit ${code}`)));
    this.worker = w;
    return w;
  }
}

class ParserPool {
  private readonly slots = Array.from({ length: SLOTS }, () => new Slot());
  private nextId = 1;

  /** Starts every worker and loads `grammar` in each (a tree-wide tool is about to send many files). */
  warm(grammar: GrammarId): void {
    for (const slot of this.slots) {
      if (slot.started && slot.warmed.has(grammar)) continue;
      try {
        // A failure here is the first parse's to report (this one only saves it time).
        this.send(slot, { op: "warm", grammar, text: "", key: "" }).catch(() => {});
        slot.warmed.add(grammar);
      } catch {}
    }
  }

  /**
   * The worker for a request: a content key always goes to the same started worker (its cache holds the
   * file's answers); a keyless one to the least busy.
   */
  private pick(key: string): Slot {
    const started = this.slots.filter((s) => s.started);
    if (started.length === 0) return this.slots[0]!;
    if (key !== "") return started[Number.parseInt(key.slice(0, 8), 16) % started.length] ?? started[0]!;
    return started.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
  }

  request<T>(req: Omit<ParseRequest, "id">, signal?: AbortSignal): Promise<T> {
    return this.send(this.pick(req.key), req, signal);
  }

  private send<T>(slot: Slot, req: Omit<ParseRequest, "id">, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new ToolError("cancelled", {}));
    const w = slot.ensure();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const cancel = () => {
        if (slot.pending.delete(id)) reject(new ToolError("cancelled", {}));
      };
      const settled = signal ? onAbort(signal, cancel) : () => {};
      slot.pending.set(id, {
        resolve: (v) => {
          settled();
          resolve(v as T);
        },
        reject: (e) => {
          settled();
          reject(e);
        },
      });
      w.ref();
      w.postMessage({ ...req, id } satisfies ParseRequest);
    });
  }
}

// Process-wide on purpose: one thread and one grammar memory for all connections (see the header).
const pool = new ParserPool();

export function parseSymbols(grammar: GrammarId, text: string, key: string, signal?: AbortSignal) {
  return pool.request<SymbolsResult>({ op: "symbols", grammar, text, key }, signal);
}

export function parseOccurrences(
  grammar: GrammarId,
  text: string,
  key: string,
  name?: string,
  signal?: AbortSignal,
) {
  return pool.request<OccurrencesResult>(
    { op: "occurrences", grammar, text, key, ...(name !== undefined ? { name } : {}) },
    signal,
  );
}

/**
 * Starts every worker and loads a grammar in each ahead of the first file (once per grammar and worker): a
 * tree-wide tool calls it as its walk finds a file of the language, so the workers' start-up and the
 * grammar's compile overlap the walk instead of following it. Nothing waits on it.
 */
export function warmParser(grammar: GrammarId): void {
  pool.warm(grammar);
}

export function parseErrors(grammar: GrammarId, text: string, signal?: AbortSignal) {
  return pool.request<number>({ op: "errors", grammar, text, key: "" }, signal);
}

export function parseUses(grammar: GrammarId, text: string, key: string, signal?: AbortSignal) {
  return pool.request<UsesResult>({ op: "uses", grammar, text, key }, signal);
}

/** Symbols and uses in one request (the text crosses once). */
export function parseMap(grammar: GrammarId, text: string, key: string, signal?: AbortSignal) {
  return pool.request<MapResult>({ op: "map", grammar, text, key }, signal);
}
