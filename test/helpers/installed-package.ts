/**
 * vitest globalSetup of the black-box tiers: the tests start the package as users install it. The build is
 * made when stale (fresh-build.ts), packed with `npm pack` (what npm would publish), and the tarball is
 * installed with `npm install --omit=dev` into a prefix in the system's temp directory, outside the
 * repository, so no module of the repository's node_modules can be reached from it. The install is keyed on
 * the tarball's hash and reused while the package is unchanged; the bin path reaches the test files through
 * vitest's `provide` (read by test/helpers/server.ts as MCPFS_BIN).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { ensureFreshBuild } from "./fresh-build.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const INSTALLS = path.join(os.tmpdir(), "mcpfs-test-install");
/** Written last: an install without it was cut short and is made again. */
const DONE = ".mcpfs-installed";
/** Installs not used for this long are removed when another is made. */
const KEEP_MS = 24 * 3600_000;
const win = process.platform === "win32";

declare module "vitest" {
  export interface ProvidedContext {
    /** The installed package's executable (node_modules/mcpfs/dist/bundle/mcpfs.js below the prefix). */
    mcpfsBin: string;
    /** The packed tarball the install came from. */
    mcpfsTarball: string;
  }
}

function npm(args: string[], cwd: string): string {
  // npm.cmd runs through the shell on Windows: quote what holds spaces (a temp folder under "John Doe").
  const quoted = win ? args.map((a) => (/\s/.test(a) ? `"${a}"` : a)) : args;
  return execFileSync(win ? "npm.cmd" : "npm", quoted, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    shell: win,
    // npm run (vitest's parent) exports its own settings as npm_config_*; the install must not inherit
    // e.g. a dev-dependency setting or the repository as prefix.
    env: Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_config_")),
    ),
  });
}

/** A directory above `dir` holding node_modules would let the installed server resolve what it lacks. */
function reachableNodeModules(dir: string): string | undefined {
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const nm = path.join(d, "node_modules");
    if (fs.existsSync(nm)) return nm;
    if (path.dirname(d) === d) return undefined;
  }
}

/** Packs the repository (built already) and returns the tarball's path and npm's sha1 of it. */
export function pack(root = ROOT, into = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-pack-"))) {
  // prepack would build again; the build was just checked.
  const out = npm(["pack", "--ignore-scripts", "--json", "--pack-destination", into], root);
  const [info] = JSON.parse(out) as { filename: string; shasum: string }[];
  if (!info) throw new Error(`npm pack printed no package: ${out}`);
  return { tarball: path.join(into, info.filename), shasum: info.shasum };
}

/** The platform to install for, when not this one (npm's --os/--cpu: which ripgrep binary comes along). */
export interface Platform {
  os: string;
  cpu: string;
}

/** Installs the tarball into a fresh prefix below `installs` (reused when that hash is installed already). */
export function install(tarball: string, shasum: string, installs = INSTALLS, platform?: Platform) {
  const key = shasum.slice(0, 16) + (platform ? `-${platform.os}-${platform.cpu}` : "");
  const prefix = path.join(installs, key);
  const bin = path.join(prefix, "node_modules", "mcpfs", "dist", "bundle", "mcpfs.js");
  const masked = reachableNodeModules(prefix);
  if (masked) throw new Error(`black-box tests: ${masked} would be reachable from the installed package`);
  if (fs.existsSync(path.join(prefix, DONE))) {
    const now = new Date();
    fs.utimesSync(path.join(prefix, DONE), now, now);
    return { prefix, bin };
  }
  fs.mkdirSync(installs, { recursive: true });
  prune(installs);
  // Installed beside, then renamed into place: a concurrent run of the same package finds it whole or not at all.
  const staging = fs.mkdtempSync(path.join(installs, `${key}.tmp-`));
  // Readable by all, as a global install is (tests run the server as another user too).
  fs.chmodSync(staging, 0o755);
  const kept = path.join(staging, path.basename(tarball));
  fs.copyFileSync(tarball, kept);
  fs.writeFileSync(path.join(staging, "package.json"), '{"private":true}\n');
  const target = platform ? [`--os=${platform.os}`, `--cpu=${platform.cpu}`] : [];
  npm(
    ["install", "--omit=dev", "--no-audit", "--no-fund", "--no-save", ...target, "--prefix", staging, kept],
    staging,
  );
  fs.writeFileSync(path.join(staging, DONE), `${new Date().toISOString()}\n`);
  try {
    // A whole install (its marker is written before the rename) may be in use by another run: never
    // removed here; only a folder without the marker is.
    if (!fs.existsSync(path.join(prefix, DONE))) fs.rmSync(prefix, { recursive: true, force: true });
    fs.renameSync(staging, prefix);
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (!fs.existsSync(path.join(prefix, DONE))) throw err;
  }
  return { prefix, bin };
}

/** Removes installs unused for a day and staging folders of runs that died. */
function prune(installs: string): void {
  for (const name of fs.readdirSync(installs)) {
    const dir = path.join(installs, name);
    // Another run may be removing it at the same time.
    const stamp =
      fs.statSync(path.join(dir, DONE), { throwIfNoEntry: false }) ??
      fs.statSync(dir, { throwIfNoEntry: false });
    if (stamp && Date.now() - stamp.mtimeMs > (name.includes(".tmp-") ? 3600_000 : KEEP_MS))
      fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds, packs and installs (for `platform`, default this one); provides the bin and tarball to the tests. */
export function provideInstalled(project: TestProject, platform?: Platform): void {
  ensureFreshBuild();
  const packed = pack();
  const { bin, prefix } = install(packed.tarball, packed.shasum, INSTALLS, platform);
  const tarball = path.join(prefix, path.basename(packed.tarball));
  fs.rmSync(path.dirname(packed.tarball), { recursive: true, force: true });
  if (!fs.existsSync(bin)) throw new Error(`black-box tests: the installed package has no ${bin}`);
  project.provide("mcpfsBin", bin);
  project.provide("mcpfsTarball", tarball);
}

export default function setup(project: TestProject): void {
  provideInstalled(project);
}
