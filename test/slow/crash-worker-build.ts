/**
 * The crash tests' worker (crash-worker.mjs: the core from src/ in a loop) bundled with esbuild into one file
 * in a temp folder, so a killed process runs the sources under test with no node_modules reachable.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Bundles the worker into a new temp folder; returns the file to run with Node and how to remove it. */
export async function bundleCrashWorker(): Promise<{ worker: string; cleanup: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-crash-worker-"));
  const worker = path.join(dir, "crash-worker.mjs");
  await build({
    entryPoints: [path.join(here, "crash-worker.mjs")],
    outfile: worker,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // CommonJS packages inside an ES module bundle reach Node's builtins through a real require.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: "error",
  });
  return { worker, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
