/**
 * The parser worker: owns web-tree-sitter, loads a grammar on the first file of its language, reads Markdown's
 * headings (markdown.ts), and keeps the answers for recent files by content (a changed file has another hash, so its old entry is never hit again
 * and ages out). The main thread reads files through the path gate and sends their text; this thread never
 * opens a workspace file.
 */
import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import treeSitter from "@vscode/tree-sitter-wasm";
import { extractOccurrences, extractSymbols, extractUses, leadingStart } from "./extract.js";
import { type GrammarId, grammarsOf, type Reading } from "./languages.js";
import { markdownSymbols } from "./markdown.js";
import type { ParseRequest, ParseResponse, ParserFiles } from "./protocol.js";
import { type ReadTree, readTree } from "./read-tree.js";

/** A request for tree-sitter grammars (not Markdown). */
type TreeRequest = ParseRequest & { reading: Reading };

// The package is CommonJS whose exports Node's ESM loader cannot list (a UMD factory's return value): only its
// default export (module.exports) is importable by name under plain Node; the bundle takes it the same way.
const { Language, Parser } = treeSitter;
type Language = InstanceType<typeof Language>;
type Parser = InstanceType<typeof Parser>;

const files = workerData as ParserFiles;

/** A file's answers so far, as the JSON text sent (occurrences per name asked). */
interface Entry {
  symbols?: string;
  uses?: string;
  occurrences: Map<string, string>;
  chars: number;
}

/** Answers kept for this many characters of JSON in all (least recently used dropped first). */
const CACHE_CHARS = 8 * 1024 * 1024;
const cache = new Map<string, Entry>();
let cached = 0;

let ready: Promise<Parser> | undefined;
const languages = new Map<GrammarId, Promise<Language>>();

function parser(): Promise<Parser> {
  // The runtime asks for one file, its own WebAssembly.
  ready ??= Parser.init({ locateFile: () => files.runtime }).then(() => new Parser());
  return ready;
}

function language(id: GrammarId): Promise<Language> {
  let l = languages.get(id);
  if (!l) {
    // The file is read while the runtime starts; the grammar loads into the started runtime.
    l = Promise.all([readFile(files.grammars[id]), parser()]).then(([bytes]) => Language.load(bytes));
    languages.set(id, l);
    l.catch(() => languages.delete(id)); // a failed load is tried again by the next file
  }
  return l;
}

function entryFor(key: string): Entry {
  let e = cache.get(key);
  if (e)
    cache.delete(key); // re-inserted below: Map order is the LRU order
  else e = { occurrences: new Map(), chars: 0 };
  cache.set(key, e);
  return e;
}

/** Counts an answer just kept in `e`, then drops the least recently used entries over the cap. */
function grew(e: Entry, json: string): string {
  e.chars += json.length;
  cached += json.length;
  for (const [key, old] of cache) {
    if (cached <= CACHE_CHARS || old === e) break;
    cache.delete(key);
    cached -= old.chars;
  }
  return json;
}

/** The last file's tree, kept: the map asks for a file's symbols and then its uses, one parse for both. */
let last: { id: string; read: ReadTree } | undefined;

async function withTree<T>(req: TreeRequest, use: (read: ReadTree) => T): Promise<T> {
  const id = req.key === "" ? undefined : `${req.reading}:${req.key}`;
  if (id !== undefined && last?.id === id) return use(last.read);
  const p = await parser();
  const read = await readTree(req.reading, req.text, async (grammar) => {
    p.setLanguage(await language(grammar));
    const tree = p.parse(req.text);
    if (!tree) throw new Error("parse failed");
    return tree;
  });
  if (id === undefined) {
    try {
      return use(read);
    } finally {
      read.tree.delete();
    }
  }
  last?.read.tree.delete();
  last = { id, read };
  return use(read);
}

async function symbolsJson(req: TreeRequest, e: Entry): Promise<string> {
  e.symbols ??= grew(
    e,
    await withTree(req, ({ tree, grammar, errors, firstError }) =>
      JSON.stringify({ symbols: extractSymbols(tree.rootNode, grammar, req.text), errors, firstError }),
    ),
  );
  return e.symbols;
}

async function usesJson(req: TreeRequest, e: Entry): Promise<string> {
  e.uses ??= grew(
    e,
    await withTree(req, ({ tree, grammar }) => JSON.stringify(extractUses(tree.rootNode, grammar, req.text))),
  );
  return e.uses;
}

/** A Markdown file's headings (markdown.ts; no tree, no syntax errors), kept like a grammar's symbols. */
async function markdownJson(req: ParseRequest): Promise<string> {
  if (req.op !== "symbols") throw new Error(`no ${req.op} for Markdown`);
  const e = entryFor(`markdown:${req.key}`);
  e.symbols ??= grew(
    e,
    JSON.stringify({ symbols: await markdownSymbols(req.text), errors: 0, firstError: 0 }),
  );
  return e.symbols;
}

const isTreeRequest = (req: ParseRequest): req is TreeRequest => req.reading !== "markdown";

async function handle(req: ParseRequest): Promise<string> {
  if (!isTreeRequest(req)) return markdownJson(req);
  if (req.op === "warm") {
    await language(grammarsOf(req.reading)[0]!);
    return "null";
  }
  if (req.op === "errors") return String(await withTree(req, (read) => read.errors));
  if (req.op === "lead")
    return String(await withTree(req, ({ tree }) => leadingStart(tree.rootNode, req.text, req.at ?? 0)));
  const e = entryFor(`${req.reading}:${req.key}`);
  if (req.op === "symbols") return symbolsJson(req, e);
  if (req.op === "uses") return usesJson(req, e);
  if (req.op === "map") return `{"symbols":${await symbolsJson(req, e)},"uses":${await usesJson(req, e)}}`;
  // Occurrences of the one name asked (tagging every identifier of a file costs more than parsing it).
  const name = req.name ?? "";
  let json = e.occurrences.get(name);
  if (json === undefined) {
    const all = await withTree(req, ({ tree, grammar }) =>
      extractOccurrences(tree.rootNode, grammar, req.text, req.name),
    );
    json = JSON.stringify([...all]);
    e.occurrences.set(name, grew(e, json));
  }
  return json;
}

/**
 * Answers sent in one message, at most (fewer when no request waits). Each message wakes the main thread, and
 * on a busy 2-core machine the wake-up is the sender's cost: posting each of src/'s 300 answers alone took the
 * worker 50-130 ms under load (14-30 ms on a quiet machine).
 */
const BATCH = 4;
const inbox: ParseRequest[] = [];
const outbox: ParseResponse[] = [];
let draining = false;

async function answer(req: ParseRequest): Promise<ParseResponse> {
  try {
    return { id: req.id, ok: true, json: await handle(req) };
  } catch (err) {
    return { id: req.id, ok: false, cause: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * One request at a time, in order (the parser is single-threaded anyway), yielding to the event loop between
 * them so requests sent meanwhile are known before the answers so far go out.
 */
async function drain(): Promise<void> {
  const req = inbox.shift();
  if (req) outbox.push(await answer(req));
  if (outbox.length >= BATCH || (inbox.length === 0 && outbox.length > 0))
    parentPort!.postMessage(outbox.splice(0));
  if (inbox.length > 0) setImmediate(drain);
  else draining = false;
}

parentPort!.on("message", (req: ParseRequest) => {
  inbox.push(req);
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
});
