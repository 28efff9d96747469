/**
 * Compiles a user regex off the main thread and reports how long it took (see regex-admit.ts): the same
 * two compilations the js engine's matcher makes.
 */
import { parentPort, workerData } from "node:worker_threads";
import { RE2JS } from "re2js";

const { pattern, caseSensitive } = workerData as { pattern: string; caseSensitive: boolean };
const flags = caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
const started = performance.now();
try {
  RE2JS.compile(pattern, flags);
  RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  parentPort?.postMessage({ ms: performance.now() - started });
} catch (err) {
  parentPort?.postMessage({ error: (err as Error).message });
}
