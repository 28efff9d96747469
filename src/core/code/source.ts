/** A code file read once through the verified open, and its symbols (parsed off the main thread). */
import { onAbort } from "../concurrency.js";
import { ToolError } from "../errors.js";
import { readSnapshot, type Snapshot } from "../mutate/snapshot.js";
import { type Codec, decodeFile, decodeForEdit } from "../text/decode.js";
import type { ResolvedPath } from "../workspace.js";
import type { Occurrence, SymbolNode } from "./extract.js";
import { type Language, languageOf } from "./languages.js";
import { parseMap, parseOccurrences, parseSymbols, parseUses } from "./parser-pool.js";
import { ViewCache } from "./view-cache.js";

/** Files larger than this are not parsed (generated code, bundles): 2 MiB. */
export const MAX_CODE_BYTES = 2 * 1024 * 1024;

/** What the read-only tools need of a file: its language, text and hash. */
export interface CodeText {
  language: Language | undefined;
  /** The text without a BOM (offsets of symbols are into it). */
  text: string;
  sha256: string;
}

/** A file read for an edit: its text and the snapshot the change is checked against. */
export interface CodeFile extends CodeText {
  target: ResolvedPath;
  bom: boolean;
  /** The file's encoding (the reads' decode policy), which an edit writes back in. */
  codec: Codec;
  snapshot: Snapshot;
}

/**
 * The file decoded by the reads' policy (UTF-8, a BOM's encoding, else `encoding`); `forEdit`: its bytes must
 * come back unchanged from that text (decode.ts's `decodeForEdit`), so an edit keeps every other line's bytes.
 */
export async function readCode(target: ResolvedPath, encoding?: string, forEdit = false): Promise<CodeFile> {
  const snap = await readSnapshot(target, { maxBytes: MAX_CODE_BYTES, tooLarge: "code_size" });
  if (!snap) throw new ToolError("not_found", { reason: "file", path: target.requested });
  const { text, codec } = await (forEdit ? decodeForEdit : decodeFile)(snap.data, target.requested, encoding);
  const bom = text.startsWith("\uFEFF");
  const body = bom ? text.slice(1) : text;
  return {
    target,
    language: languageOf(target.real, body),
    text: body,
    bom,
    codec,
    sha256: snap.sha256,
    snapshot: snap,
  };
}

const views = new ViewCache<CodeText>();

/** A file for the read-only tools: kept while unchanged (view-cache.ts), so a second look reads nothing. */
export function viewCode(target: ResolvedPath, encoding?: string): Promise<CodeText> {
  return views.get(target, async () => {
    const f = await readCode(target, encoding);
    return {
      value: { language: f.language, text: f.text, sha256: f.sha256 },
      fingerprint: f.snapshot.fingerprint,
      // The text and the answers kept with it (`answers`): an outline's or a map's are about half the text
      // again (measured on src/), so twice the text is the entry's weight.
      weight: 2 * f.text.length,
    };
  });
}

/** Per file object, the worker's answers so far (a kept file is never sent to the worker twice). */
const answers = new WeakMap<CodeText, Map<string, Promise<unknown>>>();

/** The answer shared by every caller (none cancels another's); `signal` only stops this caller waiting. */
function memo<T>(file: CodeText, key: string, ask: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let m = answers.get(file);
  if (!m) {
    m = new Map();
    answers.set(file, m);
  }
  let p = m.get(key) as Promise<T> | undefined;
  if (!p) {
    const asked = ask();
    p = asked;
    m.set(key, asked);
    asked.catch(() => m.delete(key)); // a failed parse is asked again next time
  }
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new ToolError("cancelled", {}));
  return new Promise<T>((resolve, reject) => {
    const settled = onAbort(signal, () => reject(new ToolError("cancelled", {})));
    p.then(resolve, reject).finally(settled);
  });
}

export interface FileSymbols {
  symbols: SymbolNode[];
  /** Syntax errors in the file (ERROR/MISSING nodes): symbols from the first on may be missing. */
  errors: number;
  /** The line of the first syntax error (0: none). */
  firstError: number;
}

/** The file's symbols; `undefined` when mcpfs has no grammar for its language. */
export async function symbolsOf(file: CodeText, signal?: AbortSignal): Promise<FileSymbols | undefined> {
  const language = file.language;
  if (language === undefined) return undefined;
  return memo(file, "symbols", () => parseSymbols(language, file.text, file.sha256), signal);
}

/** Identifier occurrences (all, or of one name); `undefined` without a grammar (Markdown has none). */
export async function occurrencesOf(
  file: CodeText,
  name?: string,
  signal?: AbortSignal,
): Promise<Map<string, Occurrence[]> | undefined> {
  if (file.language === undefined || file.language === "markdown") return undefined;
  return new Map(await parseOccurrences(file.language, file.text, file.sha256, name, signal));
}

/** The names a file uses without defining them there, with counts; `undefined` without a grammar. */
export async function usesOf(file: CodeText, signal?: AbortSignal): Promise<Map<string, number> | undefined> {
  const language = file.language;
  if (language === undefined || language === "markdown") return undefined;
  return memo(file, "uses", async () => new Map(await parseUses(language, file.text, file.sha256)), signal);
}

/**
 * A file's symbols and uses (the repository map's view): one request for both when neither is known yet,
 * so the text crosses to the worker once.
 */
export async function symbolsAndUsesOf(
  file: CodeText,
  signal?: AbortSignal,
): Promise<{ symbols: FileSymbols; uses: Map<string, number> } | undefined> {
  const language = file.language;
  if (language === undefined || language === "markdown") return undefined;
  const known = answers.get(file);
  if (!known?.has("symbols") && !known?.has("uses")) {
    const both = parseMap(language, file.text, file.sha256); // shared below: no caller's signal stops it
    memo(file, "symbols", () => both.then((m) => m.symbols));
    memo(file, "uses", () => both.then((m) => new Map(m.uses)));
  }
  const [symbols, uses] = await Promise.all([symbolsOf(file, signal), usesOf(file, signal)]);
  return symbols && uses ? { symbols, uses } : undefined;
}
