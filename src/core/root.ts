/**
 * What a root is (one place the server may touch, and the volume it lives on) and what resolving a client's
 * path yields. Below the workspace: the gate, the ignore rules, the journal and safe opens read roots without
 * importing the Workspace that resolves paths (no import cycle through workspace.ts). Below the journal too:
 * the recorder a tool call's paths carry is workspace.ts's addition (its `ResolvedPath`).
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { DenyRules } from "./deny.js";
import { ToolError } from "./errors.js";
import { EXACT_NAMES, FOLDED_NAMES, type NamePolicy } from "./paths.js";
import type { RuleMemory } from "./rule-memory.js";

export type RootMode = "rw" | "ro";
export type RootKind = "directory" | "project" | "reference";

/** One place the server may touch. `path` is the form the user gave (normalised), `real` its realpath. */
export interface Root {
  readonly path: string;
  readonly real: string;
  readonly mode: RootMode;
  readonly kind: RootKind;
  /** Reference projects are addressed by name. */
  readonly name?: string;
  readonly url?: string;
  /** What the root's volume does, probed by `makeRoot` (absent: exact names, descriptor paths on Linux). */
  readonly volume?: Volume;
  /** The server's `--deny` rules (absent: none). */
  readonly deny?: DenyRules;
  /** The ignore rules at start-up, where the surface hides ignored paths and the root is writable. */
  readonly startRules?: RuleMemory;
}

/** Facts about the volume a root lives on that change how access is decided and how races are closed. */
export interface Volume {
  /** How names compare on this volume (case-insensitive volumes fold case). */
  readonly names: NamePolicy;
  /** `/proc/self/fd/N` names what a descriptor holds (Linux); elsewhere descriptors are re-checked by stat. */
  readonly descriptorPaths: boolean;
  /**
   * Hard links may be tried (exFAT and some network shares have none: every link site then falls back, on
   * its first EPERM/ENOTSUP, to a way without them). Not probed; false only when forced.
   */
  readonly hardLinks: boolean;
}

/** Overrides of the probes, for tests and the CLI's test switches only. */
export interface VolumeOverrides {
  /** Force the case-folding policy (true) or exact names (false) whatever the probe says. */
  foldCase?: boolean;
  /** Use the portable descriptor checks (no `/proc/self/fd`) even where `/proc` works. */
  portableDescriptors?: boolean;
  /** Behave as on a filesystem without hard links (every link site takes its fallback). */
  noHardLinks?: boolean;
}

const DEFAULT_VOLUME: Volume = {
  names: EXACT_NAMES,
  descriptorPaths: process.platform === "linux",
  hardLinks: true,
};

/** The name policy of a root (exact when not probed). */
export function namesOf(root: Root): NamePolicy {
  return root.volume?.names ?? DEFAULT_VOLUME.names;
}

export function descriptorPathsOf(root: Root): boolean {
  return root.volume?.descriptorPaths ?? DEFAULT_VOLUME.descriptorPaths;
}

export function hardLinksOf(root: Root): boolean {
  return root.volume?.hardLinks ?? DEFAULT_VOLUME.hardLinks;
}

/**
 * How a connection's paths resolve and what they may reach beyond confinement and read-only roots. The
 * surface's policy builds it (`SurfacePolicy.pathRules`): the core applies rules, never asks which surface
 * it serves.
 */
export interface PathRules {
  /**
   * Relative paths resolve against one base root and any `..` segment is refused (mcp-workspace's seed).
   * Otherwise relative paths are tried against the roots in order and `..` is resolved, then confined (as
   * the official filesystem server does).
   */
  readonly anchored: boolean;
  /** `.git/` and what .gitignore files ignore can be neither read nor written (mcp-workspace's rule). */
  readonly hideIgnored: boolean;
  /** Writes into `.git` directories are allowed (a planted config or hook would run on the user's next git command). */
  readonly gitDirWrites: boolean;
}

export type Intent = "read" | "write";

export interface ResolveOptions {
  intent: Intent;
  /** Anchored rules: the root the path is relative to and confined to. */
  base?: Root;
}

export interface ResolvedPath {
  /** What the client sent, for messages. */
  readonly requested: string;
  /** The real location: realpath of the path, or of its deepest existing ancestor plus the missing tail. */
  readonly real: string;
  /** The deepest root that contains `real`. */
  readonly root: Root;
  /** Whether `real` existed when resolved (a dangling final symlink counts as not existing). */
  readonly exists: boolean;
  /** `real` relative to `root.real` ("" for the root itself), with `/` separators. */
  readonly relative: string;
  /**
   * `resolveEntry` only: the last component as the client spelled it, when it designates an existing entry
   * spelled otherwise on disk (another case on a case-insensitive volume, another Unicode form). A rename to
   * it changes only the spelling.
   */
  readonly spelled?: string;
}

/** Builds a root from a directory the user named; throws if it is not an accessible directory. */
export async function makeRoot(
  dir: string,
  mode: RootMode,
  kind: RootKind,
  extra: { name?: string; url?: string; overrides?: VolumeOverrides } = {},
): Promise<Root> {
  const { overrides, ...names } = extra;
  const abs = path.resolve(dir);
  const real = await fs.realpath(abs);
  const st = await fs.stat(real);
  if (!st.isDirectory()) throw new ToolError("not_directory", { path: dir });
  const folds = overrides?.foldCase ?? (await probeFoldsCase(real, st, mode));
  const volume: Volume = {
    names: folds ? FOLDED_NAMES : EXACT_NAMES,
    descriptorPaths: await probeDescriptorPaths(real),
    hardLinks: true,
  };
  return withOverrides({ path: abs, real, mode, kind, ...names, volume }, overrides ?? {});
}

/** `root` with the test switches applied over what was probed. */
export function withOverrides(root: Root, overrides: VolumeOverrides): Root {
  if (overrides.foldCase === undefined && !overrides.portableDescriptors && !overrides.noHardLinks)
    return root;
  const probed = root.volume ?? DEFAULT_VOLUME;
  const names =
    overrides.foldCase === undefined ? probed.names : overrides.foldCase ? FOLDED_NAMES : EXACT_NAMES;
  const descriptorPaths = probed.descriptorPaths && !overrides.portableDescriptors;
  const hardLinks = probed.hardLinks && !overrides.noHardLinks;
  return { ...root, volume: { names, descriptorPaths, hardLinks } };
}

function flipCase(name: string): string | undefined {
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    const f = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
    if (f !== c && f.length === 1 && f.toLowerCase() === c.toLowerCase())
      return name.slice(0, i) + f + name.slice(i + 1);
  }
  return undefined;
}

/**
 * Whether `b` (another case of `a`) names the same entry; undefined when `a` proves nothing: missing, or a
 * file with several hard links (`a` and `A` could be two links of one file on a case-sensitive volume, and
 * a wrong "folds" would widen confinement to sibling directories that differ in case).
 */
async function sameEntry(a: string, b: string): Promise<boolean | undefined> {
  const [x, y] = await Promise.all([fs.lstat(a).catch(() => undefined), fs.lstat(b).catch(() => undefined)]);
  if (!x || (!x.isDirectory() && x.nlink > 1)) return undefined;
  return y !== undefined && x.ino === y.ino && x.dev === y.dev;
}

/**
 * Whether names on the volume of `real` compare without case, learnt from the disk, never from the platform:
 * an entry of the root looked up with one letter's case flipped; else a probe file created in the root; else
 * the root itself looked up that way (its parent directory answers, nearly always the same volume). Only a
 * read-only root without any lettered entry, name or writable place falls back to the platform's default.
 */
async function probeFoldsCase(real: string, st: { dev: number }, mode: RootMode): Promise<boolean> {
  // The first lettered entries only (opendir streams: a huge root costs no more than a small one). An entry
  // whose flipped name exists separately has another inode, which answers "exact" all the same.
  const dir = await fs.opendir(real).catch(() => undefined);
  if (dir) {
    try {
      let seen = 0;
      for await (const e of dir) {
        if (++seen > 64) break;
        const flipped = flipCase(e.name);
        if (flipped === undefined) continue;
        const same = await sameEntry(path.join(real, e.name), path.join(real, flipped));
        if (same !== undefined) return same;
      }
    } catch {
      // Unreadable: go on with the other probes.
    }
  }
  if (mode === "rw") {
    const name = `.mcpfs-${randomBytes(8).toString("hex")}.tmp`;
    const probe = path.join(real, name);
    try {
      const fh = await fs.open(probe, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await fh.close();
      try {
        return (await sameEntry(probe, path.join(real, name.toUpperCase()))) === true;
      } finally {
        await fs.unlink(probe).catch(() => {});
      }
    } catch {
      // Not writable after all: go on with the other probes.
    }
  }
  for (let dir = real; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const flipped = flipCase(path.basename(dir));
    if (flipped === undefined) continue;
    const here = await fs.stat(dir).catch(() => undefined);
    if (!here || here.dev !== st.dev) break;
    const same = await sameEntry(dir, path.join(path.dirname(dir), flipped));
    if (same !== undefined) return same;
  }
  return process.platform === "win32" || process.platform === "darwin";
}

/** Whether `/proc/self/fd/N` reads back the directory a descriptor holds (probed, not assumed from the OS). */
async function probeDescriptorPaths(real: string): Promise<boolean> {
  if (process.platform === "win32") return false;
  let fh: Awaited<ReturnType<typeof fs.open>> | undefined;
  try {
    fh = await fs.open(real, constants.O_RDONLY | constants.O_DIRECTORY);
    return (await fs.readlink(`/proc/self/fd/${fh.fd}`)) === real;
  } catch {
    return false;
  } finally {
    await fh?.close().catch(() => {});
  }
}
