#!/usr/bin/env node
// The `mcpfs` executable: runs the bundled server (mcpfs-main.cjs beside this file) through a V8 code cache.
// Node 20 has no module compile cache (module.enableCompileCache is Node 22), and compiling the bundle is
// a large part of a cold start; with the cache V8 skips parsing and compiling what the last start ran.
// The cache lives in the user's cache directory (owner-only), keyed by the bundle's build id; a missing,
// foreign, corrupt or stale cache is simply not used. MCPFS_NO_COMPILE_CACHE=1 turns it off.
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";

const BUILD_ID = "__MCPFS_BUILD_ID__";
const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, "mcpfs-main.cjs");
const require = createRequire(main);
// The bundle's dynamic imports of external packages (ESM-only ones among them) are served from here: this
// module sits beside the bundle, so they resolve the same way.
globalThis[Symbol.for("mcpfs.import")] = (specifier) => import(specifier);

function cacheFile() {
  if (process.env.MCPFS_NO_COMPILE_CACHE === "1") return undefined;
  const base =
    process.env.MCPFS_CACHE_DIR ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "mcpfs");
  return path.join(base, `code-${BUILD_ID}-${process.version}-${process.arch}.bin`);
}

/** The cache's bytes, only when the file is a regular file of ours that no one else may write. */
function readCache(file) {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const st = fs.fstatSync(fd);
      const mine = typeof process.getuid !== "function" || st.uid === process.getuid();
      if (!st.isFile() || !mine || (st.mode & 0o022) !== 0) return undefined;
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Written whole under a temp name and renamed in, so a concurrent start never reads half a cache. */
function writeCache(file, data) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, data, { mode: 0o600, flag: "wx" });
    fs.renameSync(temp, file);
    pruneOld(path.dirname(file), path.basename(file));
  } catch {
    // A cache that cannot be written only costs the next start its speed-up.
  }
}

/**
 * Caches of other builds not rewritten for a week are dropped, so upgrades do not pile them up; so are temp
 * files older than an hour (a start killed while writing).
 */
function pruneOld(dir, keep) {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const maxAge = /^code-.*\.bin$/.test(name) ? 7 * 24 * 3600e3 : /^code-.*\.tmp$/.test(name) ? 3600e3 : 0;
    if (name === keep || maxAge === 0) continue;
    const p = path.join(dir, name);
    if (now - fs.lstatSync(p).mtimeMs > maxAge) fs.rmSync(p, { force: true });
  }
}

const file = cacheFile();
let startupDone = () => {};
// The server calls this once its first tools/list is answered and its tool modules are loaded.
globalThis[Symbol.for("mcpfs.startupComplete")] = () => {
  // V8 doubles the young generation as allocation goes on (16 -> 32 MiB semi-spaces on a big listing) and
  // keeps it; a long-running server gains little speed from that and keeps tens of MiB. Growth factor 1,
  // set once startup (which allocates a lot that survives) is over, keeps the young generation where it
  // is (measured: directory_tree of 100k files peaks at ~90 MiB instead of 107-117 MiB, same speed). An
  // unknown flag would only print a line on stderr.
  // The cache is made first: V8 rejects a cache made under other flags than the loading process has.
  startupDone();
  v8.setFlagsFromString("--semi-space-growth-factor=1");
};
if (file === undefined) {
  require(main);
} else {
  const cached = readCache(file);
  const script = new vm.Script(
    // latin1: the bundle is pure ASCII (bundle.mjs checks), and this decoding is several times faster.
    `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(main, "latin1")}\n})`,
    { filename: main, cachedData: cached },
  );
  if (cached === undefined || script.cachedDataRejected) {
    // Saved once startup code has run (the server signals it after its first tools/list; else a timer), so
    // the cache holds the functions a start compiles, not just the top level.
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      writeCache(file, script.createCachedData());
    };
    startupDone = save;
    setTimeout(save, 5000).unref();
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, main, here);
}
