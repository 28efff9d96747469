/**
 * The main thread's side of the parser worker: one worker per process, started on the first parse (a
 * server that never parses pays nothing), held only while requests are pending. It is shared by every
 * connection: it holds no path or permission, only results keyed by content that a caller sent it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { onAbort } from "../concurrency.js";
import { ToolError } from "../errors.js";
import type { GrammarId, Language } from "./languages.js";
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

class ParserPool {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** The grammars the current worker was asked to load. */
  private warmed = new Set<GrammarId>();

  private start(): Worker {
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
    return w;
  }

  warm(grammar: GrammarId): void {
    if (this.worker && this.warmed.has(grammar)) return;
    try {
      // A failure here is the first parse's to report (this one only saves it time).
      this.request({ op: "warm", grammar, text: "", key: "" }).catch(() => {});
      this.warmed.add(grammar);
    } catch {}
  }

  request<T>(req: Omit<ParseRequest, "id">, signal?: AbortSignal): Promise<T> {
    this.worker ??= this.start();
    const w = this.worker;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      // One listener per signal (onAbort): a tree-wide call sends every file under one signal.
      const cancel = () => {
        if (this.pending.delete(id)) reject(new ToolError("cancelled", {}));
      };
      const settled = signal ? onAbort(signal, cancel) : () => {};
      this.pending.set(id, {
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

export function parseSymbols(grammar: Language, text: string, key: string, signal?: AbortSignal) {
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
 * Starts the worker and loads a grammar ahead of the first file (once per grammar and worker): a tree-wide
 * tool calls it as its walk finds a file of the language, so the worker's start-up and the grammar's compile
 * overlap the walk instead of following it. Nothing waits on it.
 */
export function warmParser(grammar: GrammarId): void {
  pool.warm(grammar);
}

export function parseErrors(grammar: GrammarId, text: string, signal?: AbortSignal) {
  return pool.request<number>({ op: "errors", grammar, text, key: "" }, signal);
}

/** Where the definition at `at` starts with its attached doc comment and attributes (`key`: the text's hash). */
export function parseLead(grammar: GrammarId, text: string, key: string, at: number, signal?: AbortSignal) {
  return pool.request<number>({ op: "lead", grammar, text, key, at }, signal);
}

export function parseUses(grammar: GrammarId, text: string, key: string, signal?: AbortSignal) {
  return pool.request<UsesResult>({ op: "uses", grammar, text, key }, signal);
}

/** Symbols and uses in one request (the text crosses once). */
export function parseMap(grammar: GrammarId, text: string, key: string, signal?: AbortSignal) {
  return pool.request<MapResult>({ op: "map", grammar, text, key }, signal);
}
