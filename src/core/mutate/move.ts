import fs from "node:fs/promises";
import path from "node:path";
import { ToolError } from "../errors.js";
import { ensureParentDirs } from "../fs/mkdirs.js";
import { type GitRepository, openRepository } from "../git/repository-gate.js";
import { runGit } from "../git/runner.js";
import { type FileState, fileState } from "../text/file-hash.js";
import type { Root } from "../workspace.js";
import { isRespelling, moveNoReplace, recordMove, respell } from "./move-no-replace.js";
import { checkExpected, DIFF_TEXT_LIMIT } from "./precondition.js";
import { type EntryPath, entryKind } from "./remove.js";
import { readSnapshot } from "./snapshot.js";

async function git(repo: GitRepository, args: string[]): Promise<{ ok: boolean; stdout: string }> {
  // Through the one git runner (the repository's config runs no program); --literal-pathspecs keeps `*`,
  // `:` etc. literal.
  const r = await runGit(repo, ["--literal-pathspecs", ...args], { timeoutMs: 30_000 }).catch(
    () => undefined,
  );
  return { ok: r !== undefined && r.code === 0 && !r.timedOut && !r.truncated, stdout: r?.stdout ?? "" };
}

/** The root's own repository, when it is one and the repository gate lets git in (else: a plain rename). */
async function rootRepository(root: Root): Promise<GitRepository | undefined> {
  const found = await fs.lstat(path.join(root.real, ".git")).then(
    () => true,
    () => false,
  );
  return found ? openRepository(root).catch(() => undefined) : undefined;
}

export interface MoveResult {
  method: "git" | "plain";
}

/**
 * Moves a file, symlink or directory inside one root, creating the destination's parents. In a git repository
 * (the root itself) a tracked file, or any directory, is moved with `git mv` so history follows; if git
 * refuses, or the source is untracked, it is a filesystem rename. Errors: ToolError `not_found` (source
 * missing), `exists` (destination occupied); raw errno errors otherwise.
 */
export async function moveEntry(source: EntryPath, dest: EntryPath): Promise<MoveResult> {
  const kind = await entryKind(source);
  if (kind === "missing") throw new ToolError("not_found", { reason: "file", path: source.requested });
  if (isRespelling(source, dest)) {
    // git's index follows on the next `git add -A`; a case-only `git mv` is refused by older gits.
    await respell(source, dest.spelled!);
    await recordMove(source, dest, kind, "fs");
    return { method: "plain" };
  }
  if ((await entryKind(dest)) !== "missing") throw new ToolError("exists", { path: dest.requested });
  if (source.relative === "" || dest.relative === "")
    throw new ToolError("invalid", { reason: "move_root", path: source.requested });
  await ensureParentDirs(dest);
  const repo = source.root === dest.root ? await rootRepository(source.root) : undefined;
  if (repo) {
    let useGit = kind === "dir";
    if (!useGit) {
      const tracked = await git(repo, ["ls-files", "-z", "--", source.relative]);
      useGit = tracked.ok && tracked.stdout.split("\0").includes(source.relative);
    }
    if (useGit) {
      const moved = await git(repo, ["mv", "--", source.relative, dest.relative]);
      if (moved.ok) {
        await recordMove(source, dest, kind, "git");
        return { method: "git" };
      }
    }
  }
  // Never replaces something that appeared at the destination meanwhile; copies across devices.
  await moveNoReplace(source, dest);
  return { method: "plain" };
}

/** Where a moved symlink lands and what the roots contain (a relative link resolves anew from there). */
export interface MovedLinkCheck {
  dest: EntryPath;
  contains: (real: string) => boolean;
  /** Whether a real path may be written (inside the roots and no read-only root at or above it). */
  writable: (real: string) => boolean;
}

/**
 * Why a relative link moved from `from` to `to` must not move: it would point outside the roots, or newly
 * into a read-only root (a link that already pointed there keeps doing so).
 */
function movedLinkFault(
  target: string,
  from: string,
  to: string,
  check: MovedLinkCheck,
): "outside" | "read-only" | undefined {
  if (path.isAbsolute(target)) return undefined;
  const after = path.resolve(path.dirname(to), target);
  if (!check.contains(after)) return "outside";
  if (!check.writable(after) && check.writable(path.resolve(path.dirname(from), target))) return "read-only";
  return undefined;
}

/** The refusal of each way a moved link would go wrong. */
const FAULT_REASONS = { outside: "moved_link_outside", "read-only": "moved_link_read_only" } as const;

/**
 * Refuses to move a relative symlink to where it would point outside the roots (as copy_file refuses to
 * copy one): `../secret` is harmless in one directory and an escape one level deeper.
 */
async function checkMovedLink(source: EntryPath, check: MovedLinkCheck): Promise<void> {
  const fault = movedLinkFault(await fs.readlink(source.real), source.real, check.dest.real, check);
  if (fault) throw new ToolError("denied", { reason: FAULT_REASONS[fault], path: source.requested });
}

/** Most entries a moved directory may hold: its links are checked one by one before anything moves. */
const MAX_SCANNED_ENTRIES = 50_000;

/**
 * Refuses to move a directory holding a relative symlink that would point outside the roots, or newly into a
 * read-only root, from its new place (`b/rel -> ../t.txt` moved one level up), as moving the link itself is. A directory of more
 * than `MAX_SCANNED_ENTRIES` entries is refused whole: its links could not all be judged in bounded time.
 */
async function checkMovedTree(source: EntryPath, check: MovedLinkCheck): Promise<void> {
  let seen = 0;
  const pending = [""];
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    const entries = await fs.readdir(path.join(source.real, rel), { withFileTypes: true });
    seen += entries.length;
    if (seen > MAX_SCANNED_ENTRIES)
      throw new ToolError("denied", {
        reason: "move_too_many",
        path: source.requested,
        limit: MAX_SCANNED_ENTRIES,
      });
    for (const e of entries) {
      const r = path.join(rel, e.name);
      if (e.isDirectory()) pending.push(r);
      if (!e.isSymbolicLink()) continue;
      const from = path.join(source.real, r);
      const fault = movedLinkFault(await fs.readlink(from), from, path.join(check.dest.real, r), check);
      if (!fault) continue;
      throw new ToolError("denied", {
        reason: FAULT_REASONS[fault],
        path: source.requested,
        entry: r.split(path.sep).join("/"),
      });
    }
  }
}

/**
 * The precondition of a move: with `expectedSha256`, the source must be a regular file that still has that
 * hash (refused with a `conflict` otherwise); with `link`, a symlink source, or every relative link a directory
 * source holds, must still point inside the roots from its new place. Returns the source's hash when it is a file (for the audit log).
 */
export async function checkMoveSource(
  source: EntryPath,
  expectedSha256?: string,
  link?: MovedLinkCheck,
): Promise<string | undefined> {
  const kind = await entryKind(source);
  if (kind === "symlink" && link) await checkMovedLink(source, link);
  if (kind === "dir" && link) await checkMovedTree(source, link);
  if (kind !== "file") {
    if (expectedSha256 !== undefined && kind !== "missing")
      throw new ToolError("invalid", { reason: "hash_not_file", path: source.requested, actual: kind });
    if (expectedSha256 !== undefined)
      checkExpected({ requested: source.requested, expected: expectedSha256, current: undefined });
    return undefined;
  }
  // With a precondition, a small file is read whole so a refusal can show what changed.
  let state: FileState | undefined = await fileState(source);
  if (expectedSha256 !== undefined && state && state.size <= DIFF_TEXT_LIMIT)
    state = (await readSnapshot(source)) ?? state;
  checkExpected({ requested: source.requested, expected: expectedSha256, current: state });
  return state?.sha256;
}
