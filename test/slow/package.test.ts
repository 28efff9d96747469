/**
 * A contributor's `npm ci` works on every platform: no required package is limited to one OS or CPU (the
 * lockfile says which are), no package puts its own `node` first on PATH in npm scripts, and npm's own
 * dry run of `npm ci` for macOS arm64 and Windows x64 installs nothing built for another platform.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { ROOT } from "../helpers/server.js";

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  bin?: Record<string, string>;
}

const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};
const entries = Object.entries(lock.packages).filter(([where]) => where !== "");
const area = tempArea("mcpfs-package-");
afterAll(() => area.cleanup());

/** npm's rule for an `os`/`cpu` list: `!x` excludes x; otherwise the list names what is allowed. */
function allows(list: string[] | undefined, value: string): boolean {
  if (!list || list.length === 0) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((v) => !v.startsWith("!"));
  return positive.length === 0 || positive.includes(value);
}

describe("npm ci on every platform", () => {
  it("no required package is limited to one OS or CPU", () => {
    const limited = entries
      .filter(([, e]) => (e.os || e.cpu) && e.optional !== true)
      .map(([where, e]) => `${where} (os ${e.os ?? "any"}, cpu ${e.cpu ?? "any"})`);
    expect(limited).toEqual([]);
  });

  it("no package provides a `node` executable that would shadow the system Node in npm scripts", () => {
    const shadows = entries.filter(([, e]) => e.bin && "node" in e.bin).map(([where]) => where);
    expect(shadows).toEqual([]);
  });

  it.each([
    ["darwin", "arm64"],
    ["win32", "x64"],
  ])("npm ci --os=%s --cpu=%s --dry-run installs only packages built for it", async (os, cpu) => {
    // A folder of its own with just the manifest and the lockfile, so the dry run lists every package.
    const dir = area.tree(`ci-${os}-${cpu}`);
    for (const f of ["package.json", "package-lock.json"])
      fs.copyFileSync(path.join(ROOT, f), path.join(dir, f));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const { stdout } = await promisify(execFile)(
      npm,
      ["ci", "--dry-run", `--os=${os}`, `--cpu=${cpu}`, "--ignore-scripts", "--no-audit", "--no-fund"],
      { cwd: dir, shell: process.platform === "win32", maxBuffer: 16 * 1024 * 1024 },
    );
    const added = [...stdout.matchAll(/^add (\S+) (\S+)$/gm)].map((m) => `${m[1]}@${m[2]}`);
    expect(added.length).toBeGreaterThan(100);
    const foreign = entries
      .filter(([where, e]) => added.includes(`${where.replace(/^.*node_modules\//, "")}@${e.version}`))
      .filter(([, e]) => !allows(e.os, os) || !allows(e.cpu, cpu))
      .map(([where]) => where);
    expect(foreign).toEqual([]);
    // The platform's own binaries are what it gets (esbuild builds the bundle, ripgrep serves grep).
    expect(added.some((p) => p.startsWith(`@esbuild/${os}-${cpu}@`))).toBe(true);
    expect(added.some((p) => p.startsWith(`@vscode/ripgrep-${os}-${cpu}@`))).toBe(true);
  });
});
