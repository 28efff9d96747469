/**
 * The build check of the black-box tiers' setup (installed-package.ts): the build is compared with its
 * inputs (src/ less its unit tests, scripts/, package.json, tsconfig.json); when an input is newer than the
 * bundle, or there is none, `npm run build` runs first. A black-box test never runs against a stale build.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const INPUTS = ["src", "scripts", "package.json", "tsconfig.json"];
const OUTPUTS = ["dist/bundle/mcpfs.js", "dist/bundle/mcpfs-main.cjs"];

/** The newest modification time of a file or of any file below a directory. */
function newest(p: string): number {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  // The unit tests beside the sources are not built (tsconfig.json leaves them out).
  for (const name of fs.readdirSync(p))
    if (!name.endsWith(".test.ts")) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

/** Why the build must be made again, or undefined when it is fresh. */
export function staleness(root = ROOT): string | undefined {
  const built = Math.min(
    ...OUTPUTS.map((o) => fs.statSync(path.join(root, o), { throwIfNoEntry: false })?.mtimeMs ?? 0),
  );
  if (built === 0) return "no build in dist/";
  const input = INPUTS.find((i) => newest(path.join(root, i)) > built);
  return input ? `${input} is newer than dist/` : undefined;
}

/** Builds when the build is stale; throws when it is still stale after. */
export function ensureFreshBuild(): void {
  if (!staleness()) return;
  // Two test runs started together must not build into dist/ at once (one would read the other's half).
  const lock = path.join(ROOT, "dist", ".build-lock");
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    const why = staleness();
    if (!why) return;
    process.stderr.write(`black-box tests: ${why}; running npm run build\n`);
    execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], {
      cwd: ROOT,
      stdio: ["ignore", process.stderr, process.stderr],
      shell: process.platform === "win32",
    });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  const still = staleness();
  if (still) throw new Error(`black-box tests: the build is still stale after npm run build (${still})`);
}
