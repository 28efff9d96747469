import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config/index.js";
import { DenyRules } from "../core/deny.js";
import type { Logger } from "../core/log.js";
import { expandHome } from "../core/paths.js";
import type { ResolvedReferences, UrlOnlyReference } from "../core/references.js";
import { RuleMemory } from "../core/rule-memory.js";
import { makeRoot, namesOf, type Root, withOverrides } from "../core/workspace.js";

export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export interface StartupRoots {
  roots: Root[];
  /** Roots that survive a client's roots replacing the command-line directories. */
  extraRoots: Root[];
  /** Workspace surface: reference projects given by URL only. */
  urlOnlyReferences: UrlOnlyReference[];
}

/** Turns the command line's directories into roots, reporting skipped ones as the official server does. */
export async function resolveStartupRoots(
  config: Config,
  log: Logger,
  warn: (line: string) => void,
): Promise<StartupRoots> {
  const found = await startupRoots(config, log, warn);
  let deny: DenyRules | undefined;
  try {
    deny = await DenyRules.compile(config.deny);
  } catch (err) {
    throw new StartupError(`Error: --deny: ${(err as Error).message}`);
  }
  const apply = (roots: Root[]) =>
    roots.map((r) => withServerRules(withOverrides(r, config.volumeOverrides), config.surface, deny));
  return { ...found, roots: apply(found.roots), extraRoots: apply(found.extraRoots) };
}

/**
 * The rules a root carries for every entry point: the `--deny` rules, and on the workspace surface (which
 * hides ignored paths) the memory of the project's start-up ignore rules, shared by every connection.
 */
function withServerRules(root: Root, surface: Config["surface"], deny: DenyRules | undefined): Root {
  const remember = surface === "workspace" && root.kind === "project" && root.mode === "rw";
  if (!deny && !remember) return root;
  const startRules = remember ? new RuleMemory((p) => namesOf(root).fold(p)) : undefined;
  return { ...root, ...(deny ? { deny } : {}), ...(startRules ? { startRules } : {}) };
}

async function startupRoots(
  config: Config,
  log: Logger,
  warn: (line: string) => void,
): Promise<StartupRoots> {
  const extraRoots: Root[] = [];
  for (const dir of config.readOnlyDirs) {
    if (isBlank(dir, warn)) continue;
    checkReadable(path.resolve(expandHome(dir)), dir);
    try {
      extraRoots.push(await makeRoot(expandHome(dir), "ro", "directory"));
    } catch {
      warn(`Warning: Cannot access directory ${dir}, skipping`);
    }
  }
  if (config.surface === "workspace") {
    const project = await projectRoot(config, log);
    // Loaded here: reference projects may run git (child_process), which the filesystem surface never needs.
    const { ReferenceUrlMismatch, resolveReferenceProjects } = await import("../core/references.js");
    let references: ResolvedReferences;
    try {
      references = await resolveReferenceProjects(config.referenceProjectArgs, project, (m) => log.warn(m));
    } catch (err) {
      if (err instanceof ReferenceUrlMismatch) throw new StartupError(`Error: ${err.message}`);
      throw err;
    }
    for (const r of references.roots)
      log.info(`Reference project '${r.name}' set to: ${r.path}${r.url ? ` (${r.url})` : ""}`);
    for (const r of references.urlOnly)
      log.info(
        `Reference project '${r.name}' set to URL only: ${r.url} (no local copy${r.path ? ` at ${r.path}` : ""}; not cloned)`,
      );
    return {
      roots: [project, ...references.roots, ...extraRoots],
      extraRoots,
      urlOnlyReferences: references.urlOnly,
    };
  }
  const roots: Root[] = [];
  for (const dir of config.directories) {
    if (isBlank(dir, warn)) continue;
    const abs = path.resolve(expandHome(dir));
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      warn(`Warning: Cannot access directory ${dir}, skipping`);
      continue;
    }
    if (!st.isDirectory()) {
      warn(`Warning: ${dir} is not a directory, skipping`);
      continue;
    }
    checkReadable(abs, dir);
    const root = await makeRoot(abs, "rw", "directory");
    // Compared by real path, so a read-only directory named through a symlink still covers this one.
    const ro = config.readOnly || extraRoots.some((r) => namesOf(r).isAtOrBelow(root.real, r.real));
    roots.push(ro ? { ...root, mode: "ro" } : root);
    if (!ro) noteUnwritable(root.real, dir, `--read-only-dir ${dir}`, warn);
  }
  if (config.directories.length > 0 && roots.length === 0)
    throw new StartupError("Error: None of the specified directories are accessible");
  return { roots: [...roots, ...extraRoots], extraRoots, urlOnlyReferences: [] };
}

/** An empty or blank argument (an unset variable) would resolve to the working directory: it grants nothing. */
function isBlank(dir: string, warn: (line: string) => void): boolean {
  if (dir.trim() !== "") return false;
  warn(`Warning: Empty directory argument ${JSON.stringify(dir)}, skipping (it grants nothing)`);
  return true;
}

async function projectRoot(config: Config, log: Logger): Promise<Root> {
  const dir = config.projectDir;
  if (dir === undefined || dir.trim() === "")
    throw new StartupError("Error: --project-dir is required for the workspace surface");
  const abs = path.resolve(expandHome(dir));
  let ok = false;
  try {
    ok = fs.statSync(abs).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new StartupError(`Error: Project directory does not exist or is not a directory: ${dir}`);
  checkReadable(abs, dir);
  const root = await makeRoot(abs, config.readOnly ? "ro" : "rw", "project");
  if (!config.readOnly) noteUnwritable(root.real, dir, "--read-only", (line) => log.warn(line));
  return root;
}

/**
 * A directory this user cannot list or enter is refused at start-up: served, every call in it would fail,
 * and neither read-only flag would help. Only a directory that exists (a missing one is skipped as before).
 */
function checkReadable(abs: string, given: string): void {
  try {
    fs.accessSync(abs, fs.constants.R_OK | fs.constants.X_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM")
      throw new StartupError(
        `Error: Cannot read directory ${given}: permission denied for this user (grant it read access, or leave the directory out)`,
      );
  }
}

/**
 * Says at start-up when a writable root cannot be written (a `ro` bind mount, a read-only volume, missing
 * permissions), so a user learns it before the first refused write. The root's mode is left alone: a
 * writable mount may sit below it, and every write still reports its own error. Not on Windows, where
 * W_OK only reads a directory's read-only attribute, which Windows ignores for directories.
 */
function noteUnwritable(real: string, given: string, flag: string, say: (line: string) => void): void {
  if (process.platform === "win32") return;
  try {
    fs.accessSync(real, fs.constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "EROFS" ? "is on a read-only file system" : "is not writable by this user";
    say(`Note: ${given} ${why}: changes there will fail (pass ${flag} to serve it read-only)`);
  }
}
