/**
 * The parser worker: owns web-tree-sitter, loads a grammar on the first file of its language, and keeps the
 * results of recent files by content (a changed file has another hash, so its old entry is never hit again
 * and ages out). The main thread reads files through the path gate and sends their text; this thread never
 * opens a workspace file.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { Language, type Node, Parser, type Tree } from "@vscode/tree-sitter-wasm";
import { errorCount, extractOccurrences, extractSymbols, type Occurrence } from "./extract.js";
import type { GrammarId } from "./languages.js";
import type { ParseRequest, ParseResponse, SymbolsResult } from "./protocol.js";

const grammarDir: string = (workerData as { grammarDir: string }).grammarDir;

interface Entry {
  symbols?: SymbolsResult;
  occurrences?: Map<string, Occurrence[]>;
  uses?: [string, number][];
  weight: number;
}

/** Results kept for this many characters of source (the texts themselves are not kept). */
const CACHE_CHARS = 64 * 1024 * 1024;
const cache = new Map<string, Entry>();
let cached = 0;

let ready: Promise<Parser> | undefined;
const languages = new Map<GrammarId, Promise<Language>>();

function parser(): Promise<Parser> {
  ready ??= Parser.init({ locateFile: (file: string) => path.join(grammarDir, file) }).then(
    () => new Parser(),
  );
  return ready;
}

function language(id: GrammarId): Promise<Language> {
  let l = languages.get(id);
  if (!l) {
    l = readFile(path.join(grammarDir, `tree-sitter-${id}.wasm`)).then((bytes) => Language.load(bytes));
    languages.set(id, l);
  }
  return l;
}

function entryFor(key: string, weight: number): Entry {
  let e = cache.get(key);
  if (e) {
    cache.delete(key); // re-inserted below: Map order is the LRU order
  } else {
    e = { weight };
    cached += weight;
    while (cached > CACHE_CHARS && cache.size > 0) {
      const [oldKey, old] = cache.entries().next().value!;
      cache.delete(oldKey);
      cached -= old.weight;
    }
  }
  cache.set(key, e);
  return e;
}

/** The last file's tree, kept: the map asks for a file's symbols and then its uses, one parse for both. */
let last: { id: string; tree: Tree } | undefined;

async function withTree<T>(req: ParseRequest, use: (root: Node) => T): Promise<T> {
  const id = req.key === "" ? undefined : `${req.grammar}:${req.key}`;
  if (id !== undefined && last?.id === id) return use(last.tree.rootNode);
  const p = await parser();
  p.setLanguage(await language(req.grammar));
  const tree = p.parse(req.text);
  if (!tree) throw new Error("parse failed");
  if (id === undefined) {
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  }
  last?.tree.delete();
  last = { id, tree };
  return use(tree.rootNode);
}

/** Names a file uses without defining them there, with counts (what the repository map needs). */
function usesOf(all: Map<string, Occurrence[]>): [string, number][] {
  const out: [string, number][] = [];
  for (const [name, list] of all) {
    const n = list.filter((o) => o.tag !== "definition").length;
    if (n > 0) out.push([name, n]);
  }
  return out;
}

async function handle(req: ParseRequest): Promise<unknown> {
  if (req.op === "errors") return withTree(req, errorCount);
  const e = entryFor(`${req.grammar}:${req.key}`, req.text.length);
  if (req.op === "symbols") {
    e.symbols ??= await withTree(req, (root) => ({
      symbols: extractSymbols(root, req.grammar, req.text),
      errors: errorCount(root),
    }));
    return e.symbols;
  }
  if (req.op === "uses") {
    e.uses ??= await withTree(req, (root) => usesOf(extractOccurrences(root, req.grammar, undefined, false)));
    return e.uses;
  }
  e.occurrences ??= await withTree(req, (root) => extractOccurrences(root, req.grammar));
  return pick(e.occurrences, req.name);
}

function pick(all: Map<string, Occurrence[]>, name: string | undefined): [string, Occurrence[]][] {
  if (name === undefined) return [...all];
  const one = all.get(name);
  return one ? [[name, one]] : [];
}

// One request at a time, in order: the parser is single-threaded anyway.
let queue: Promise<unknown> = Promise.resolve();
parentPort!.on("message", (req: ParseRequest) => {
  queue = queue.then(async () => {
    let res: ParseResponse;
    try {
      res = { id: req.id, ok: true, value: (await handle(req)) as never };
    } catch (err) {
      res = { id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    parentPort!.postMessage(res);
  });
});
