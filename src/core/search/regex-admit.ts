import { Worker } from "node:worker_threads";
import { ToolError } from "../errors.js";

/** The largest pattern accepted, in UTF-8 bytes (ripgrep's own size limits stay in force below it). */
const MAX_PATTERN_BYTES = 64 * 1024;
/**
 * Up to this weight (length times every counted repetition) re2js compiles in a few milliseconds: measured,
 * 2,000 characters of alternatives take ~30 ms. Above it the compile time is measured in a worker first.
 */
const CHEAP_WEIGHT = 2000;
/**
 * A regex that took longer than this to compile in the worker is refused: the main thread would then stall
 * every other call as long, for each compilation (measured: 9,000 alternatives, 55 KB, ~0.9 s;
 * `[a-z]{1000}` 40 times, 440 characters, over 2 s).
 */
const COMPILE_BUDGET_MS = 200;
/** The worker is stopped after this long (the regex is refused). */
const WORKER_TIMEOUT_MS = 1500;

/** A cheap upper estimate of what re2js expands the pattern into (`x{1000}` is 1,000 copies of x). */
function weight(pattern: string): number {
  let w = pattern.length;
  for (const m of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)) w *= Math.max(1, Number(m[2] || m[1]));
  return w;
}

/** A pattern that took too long to compile: `ms` when measured, else the time it was given. */
const tooComplex = (ms: { actual: number } | { limit: number }) =>
  new ToolError("invalid", { reason: "pattern_too_complex", ...ms });

/**
 * Resolves when `pattern` may be compiled on the main thread: at most 64 KiB (literal text too), and quick to
 * compile (judged in a worker when it could be slow), so a hostile regex cannot stall the other calls. A
 * syntax error is left to the caller's own compilation, which finds it while parsing (linear time).
 * @throws ToolError `invalid` when the pattern is too large or too slow to compile.
 */
export async function admitPattern(pattern: string, literal: boolean, caseSensitive: boolean): Promise<void> {
  const bytes = Buffer.byteLength(pattern);
  if (bytes > MAX_PATTERN_BYTES)
    throw new ToolError("invalid", { reason: "pattern_too_long", actual: bytes, limit: MAX_PATTERN_BYTES });
  if (literal || weight(pattern) <= CHEAP_WEIGHT) return;
  const verdict = await compileInWorker(pattern, caseSensitive);
  if ("ms" in verdict && verdict.ms > COMPILE_BUDGET_MS) throw tooComplex({ actual: Math.round(verdict.ms) });
}

/** The worker beside this module (the bundle's own when bundled: `regex-worker.cjs`). */
function workerUrl(): URL {
  const bundled = import.meta.url.endsWith(".cjs");
  return new URL(bundled ? "./regex-worker.cjs" : "./regex-worker.js", import.meta.url);
}

function compileInWorker(
  pattern: string,
  caseSensitive: boolean,
): Promise<{ ms: number } | { error: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), { workerData: { pattern, caseSensitive } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(tooComplex({ limit: WORKER_TIMEOUT_MS }));
    }, WORKER_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      void worker.terminate();
    };
    worker.once("message", (m: { ms: number } | { error: string }) => {
      done();
      resolve(m);
    });
    worker.once("error", (err) => {
      done();
      reject(new ToolError("io", { reason: "regex_check", cause: err.message }));
    });
  });
}
