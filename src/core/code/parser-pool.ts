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
import {
  GRAMMAR_PACKAGES,
  GRAMMARS,
  type GrammarId,
  type Language,
  type Reading,
  RUNTIME_PACKAGE,
} from "./languages.js";
import type {
  MapResult,
  OccurrencesResult,
  ParseRequest,
  ParseResponse,
  ParserFiles,
  SymbolsResult,
  UsesResult,
} from "./protocol.js";

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/** A package's file in node_modules at or above this module (the unbundled build). */
function inNodeModules(pkg: string, file: string): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", pkg, file);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new ToolError("invalid", { reason: "parser_missing" });
  }
}

/**
 * Where the worker and its WebAssembly files are: beside the bundle (`grammars/`, which scripts/bundle.mjs
 * fills), or (unbundled build) the compiled module, and the files in the packages languages.ts names.
 */
function locate(): { worker: string; files: ParserFiles } {
  const bundledWorker = fileURLToPath(new URL("./mcpfs-code-worker.cjs", import.meta.url));
  const bundled = existsSync(bundledWorker);
  const where = (pkg: string, file: string) =>
    bundled ? fileURLToPath(new URL(`./grammars/${file}`, import.meta.url)) : inNodeModules(pkg, file);
  const grammars = {} as Record<GrammarId, string>;
  for (const g of GRAMMARS) grammars[g] = where(GRAMMAR_PACKAGES[g], `tree-sitter-${g}.wasm`);
  return {
    worker: bundled ? bundledWorker : fileURLToPath(new URL("./worker.js", import.meta.url)),
    files: { runtime: where(RUNTIME_PACKAGE, "tree-sitter.wasm"), grammars },
  };
}

class ParserPool {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** The readings the current worker was asked to load the grammar of. */
  private warmed = new Set<Reading>();

  private start(): Worker {
    this.warmed = new Set();
    const { worker, files } = locate();
    // A small young generation: the worker's garbage (nodes, texts received) dies young, and a large one
    // only raised the server's RSS (by ~25 MiB over a tree-wide search of the bench's 100k-file monorepo).
    const w = new Worker(worker, {
      workerData: files,
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

  warm(reading: Reading): void {
    if (this.worker && this.warmed.has(reading)) return;
    try {
      // A failure here is the first parse's to report (this one only saves it time).
      this.request({ op: "warm", reading, text: "", key: "" }).catch(() => {});
      this.warmed.add(reading);
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

export function parseSymbols(reading: Language, text: string, key: string, signal?: AbortSignal) {
  return pool.request<SymbolsResult>({ op: "symbols", reading, text, key }, signal);
}

export function parseOccurrences(
  reading: Reading,
  text: string,
  key: string,
  name?: string,
  signal?: AbortSignal,
) {
  return pool.request<OccurrencesResult>(
    { op: "occurrences", reading, text, key, ...(name !== undefined ? { name } : {}) },
    signal,
  );
}

/**
 * Starts the worker and loads a grammar ahead of the first file (once per grammar and worker): a tree-wide
 * tool calls it as its walk finds a file of the language, so the worker's start-up and the grammar's compile
 * overlap the walk instead of following it. Nothing waits on it.
 */
export function warmParser(reading: Reading): void {
  pool.warm(reading);
}

export function parseErrors(reading: Reading, text: string, signal?: AbortSignal) {
  return pool.request<number>({ op: "errors", reading, text, key: "" }, signal);
}

/** Where the definition at `at` starts with its attached doc comment and attributes (`key`: the text's hash). */
export function parseLead(reading: Reading, text: string, key: string, at: number, signal?: AbortSignal) {
  return pool.request<number>({ op: "lead", reading, text, key, at }, signal);
}

export function parseUses(reading: Reading, text: string, key: string, signal?: AbortSignal) {
  return pool.request<UsesResult>({ op: "uses", reading, text, key }, signal);
}

/** Symbols and uses in one request (the text crosses once). */
export function parseMap(reading: Reading, text: string, key: string, signal?: AbortSignal) {
  return pool.request<MapResult>({ op: "map", reading, text, key }, signal);
}
