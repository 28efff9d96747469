/**
 * All-or-nothing changes to several files.
 *
 * 1. The caller computes every new content first (from snapshots it read), so nothing is written when any
 *    edit is invalid.
 * 2. Stage: each new content goes to a hidden temp file beside its target (`stageWrite`: O_EXCL, fsync,
 *    mode kept), and each existing target gets a hidden backup: a hard link to its current inode (a copy of
 *    the snapshot's bytes where links are not supported). The backup is checked to be the version the
 *    change was computed from. Targets are untouched so far.
 * 3. Commit: per target, just before the rename, its fingerprint (inode, size, mtime, ctime) is compared
 *    with the version the change was computed from (re-hashed when only the fingerprint moved); then the
 *    temp is renamed over it (or hard-linked for a new file, so a file created meanwhile is never replaced).
 * 4. Any failure rolls back the targets already committed, newest first, by renaming their backups back
 *    (the original inodes, so content, mode and owner return exactly), and removes every temp.
 *
 * Crash consistency (SIGKILL or power loss of the process, not of the kernel): every single file is always
 * either its old or its new version — never torn — because each target changes only by one rename/link of
 * a fully written, fsynced temp. A kill during staging leaves every target old. A kill during the commit
 * of a multi-file change can leave a prefix of the targets (in the order given) new and the rest old: the
 * all-or-nothing promise covers errors, not a killed process — unless a `journal` is given (the server gives
 * one unless `--no-journal`): then a change of several files first records its intent and pre-images
 * durably (journal.ts), and the prefix a kill left new is rolled back at the next start. What a kill
 * leaves behind is hidden `.mcpfs-<16 hex>.tmp` files (new contents not yet renamed, backups of old ones);
 * listings and walks hide that name, and `sweepStaleTemps` (fs/atomic-write.ts) removes them once they are
 * old when a later change touches the same directory.
 *
 * The check in step 3 narrows a concurrent writer's window to the moment between the check and the rename;
 * POSIX has no compare-and-rename, so a writer outside mcpfs that replaces the file in that instant can
 * still be overwritten. Read-to-write windows of an assistant (seconds to minutes) are fully covered.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError, ToolErrorGroup } from "../errors.js";
import { discardStaged, type StagedWrite, stageWrite, sweepStaleTemps } from "../fs/atomic-write.js";
import { type Fingerprint, fingerprintOf, sameFingerprint, sha256Of } from "../fs/hash.js";
import { ensureParentDirs, removeMadeDirs } from "../fs/mkdirs.js";
import {
  hardLink,
  hardLinkSync,
  isNoHardLinks,
  placeNoReplace,
  syncDir,
  tempPathBeside,
  withPinnedParent,
} from "../fs/safe-open.js";
import type { KeptFile } from "../journal/change-log.js";
import type { Intent, Journal, PreparedFile } from "../journal/journal.js";
import { printable } from "../paths.js";
import type { ResolvedPath, Workspace } from "../workspace.js";
import { checkExpected } from "./precondition.js";
import { readSnapshot, type Snapshot } from "./snapshot.js";

export interface WriteChange {
  kind: "write";
  target: ResolvedPath;
  data: string | Uint8Array;
  /**
   * The version `data` was computed from: the commit happens only while the file is still that version.
   * `null`: the file must not exist (it is created exclusively). Omitted: overwrite whatever is there.
   */
  base?: Snapshot | null;
  /** Mode of a new file (an existing file keeps its own). */
  mode?: number;
  /** Create missing parent directories (removed again on rollback). */
  createParents?: boolean;
  /** New permission bits even for an existing file (a patch's `new mode`). */
  setMode?: number;
}

export interface DeleteChange {
  kind: "delete";
  target: ResolvedPath;
  /** The version that may be deleted; omitted: whatever file is there. */
  base?: Snapshot;
}

export type Change = WriteChange | DeleteChange;

export interface ChangeResult {
  requested: string;
  kind: "write" | "create" | "delete";
  /** Bytes written (0 for a delete). */
  bytes: number;
  /** sha256 before (when the version was known) and after (absent for a delete). */
  before?: string;
  after?: string;
}

interface Staged {
  change: Change;
  /** The new content's temp (writes only). */
  temp?: StagedWrite;
  /** Hidden hard link (or copy) of the version being replaced or deleted. */
  backup?: string;
  /** Fingerprint of the version the backup holds: what the target must still be at commit. */
  held?: Fingerprint;
  /** The target did not exist: commit by link (never replaces), roll back by unlink. */
  create: boolean;
  /** Directories this change created, outermost first. */
  madeDirs: string[];
  committed: boolean;
  /** sha256 of the new content, computed once (a 10 MB write hashes in ~25 ms). */
  postSha256?: string;
  /** The undo journal's link to the version replaced, made beside the backup while its directory is pinned. */
  journalLink?: string;
  /** The undo journal's pre-image of the version replaced. */
  kept?: KeptFile;
}

function postHash(s: Staged): string | null {
  const c = s.change;
  if (c.kind === "delete") return null;
  s.postSha256 ??= sha256Of(c.data);
  return s.postSha256;
}

export interface CommitHooks {
  /** Called before committing change `index` (all changes are staged by then): a seam for tests. */
  beforeCommit?(index: number): Promise<void> | void;
  /** Makes a change of several files atomic across a killed process (see journal.ts). */
  journal?: JournalScope;
}

/** A journal and the workspace its rollbacks resolve through. */
export interface JournalScope {
  journal: Journal;
  ws: Workspace;
}

/** Applies `changes` all-or-nothing (see the module comment). Returns what changed, in order. */

export async function commitChanges(
  changes: readonly Change[],
  hooks: CommitHooks = {},
): Promise<ChangeResult[]> {
  const seen = new Set<string>();
  for (const c of changes) {
    if (seen.has(c.target.real))
      throw new ToolError("invalid", { reason: "twice_in_change", path: c.target.requested });
    seen.add(c.target.real);
  }
  const staged: Staged[] = [];
  let intent: Intent | undefined;
  // The undo journal of this call (change-log.ts): each replaced or deleted version is linked into it
  // before the rename that replaces it.
  // Every target comes from the same call: the first that carries the call's recorder names it.
  const change = changes.find((c) => c.target.change)?.target.change;
  const mark = change?.mark() ?? 0;
  // Leftovers of killed processes are swept while this change is staged (it only removes temps old enough
  // to be a killed process's, never this change's own): the listing then costs the reply no time.
  const dirs = new Set(changes.map((c) => path.dirname(c.target.real)));
  const swept = Promise.all([...dirs].map((d) => sweepStaleTemps(d).catch(() => 0)));
  try {
    for (const c of changes) staged.push(await stage(c));
    for (const s of staged) {
      const p = prepared(s);
      const pre = { sha256: p.preSha256, data: p.preData, linkedAt: s.journalLink };
      s.kept = await change?.keepFile(p.target, p.backup, pre, p.postSha256);
    }
    // One file changes by one rename, atomic by itself; several need the intent written first (naming the
    // pre-images the undo journal just kept).
    if (hooks.journal && staged.length > 1)
      intent = await hooks.journal.journal
        .begin(staged.map(prepared), hooks.journal.ws, change)
        .catch((err) => {
          if (err instanceof ToolError) throw err;
          throw new ToolError("io", {
            reason: "journal_write",
            cause: (err as NodeJS.ErrnoException | undefined)?.code,
          });
        });
    for (const [i, s] of staged.entries()) {
      await hooks.beforeCommit?.(i);
      await commitOne(s);
      s.committed = true;
    }
  } catch (err) {
    await change?.rewind(mark);
    for (const s of staged) if (s.journalLink) await fs.unlink(s.journalLink).catch(() => {});
    const failures = await rollBack(staged);
    await cleanUp(staged);
    for (const s of [...staged].reverse()) await removeMadeDirs(s.madeDirs, s.change.target);
    await swept;
    // Rolled back in full: the intent has nothing left to do. Otherwise it stays, for the next start.
    if (failures.length === 0) await intent?.discard().catch(() => {});
    // The failure itself stays as it is (worded by the surface), with what could not be put back after it.
    const incomplete = (first: string) => `${first}\nRollback was incomplete: ${failures.join("; ")}`;
    if (failures.length > 0) {
      // A system error's own message names real paths: its code is said instead.
      const first =
        err instanceof ToolError
          ? err
          : new ToolError("io", {
              reason: "commit_failed",
              cause: (err as NodeJS.ErrnoException | undefined)?.code,
            });
      throw new ToolErrorGroup([first], ([said]) => incomplete(said ?? ""), "io");
    }
    throw err;
  }
  // The renames made durable, and the backups dropped, at the same time (independent of each other).
  await Promise.all([...[...dirs].map(syncDir), cleanUp(staged), swept]);
  // After the backups are gone, so the journal's pre-images are their inodes' only links (made 0600).
  await intent?.commit();
  return staged.map(resultOf);
}

function prepared(s: Staged): PreparedFile {
  const c = s.change;
  return {
    target: c.target,
    backup: s.backup,
    preData: c.base?.data,
    preSha256: c.base?.sha256,
    postSha256: postHash(s),
    madeDirs: s.madeDirs,
    kept: s.kept,
  };
}

function resultOf(s: Staged): ChangeResult {
  const c = s.change;
  const before = c.base ? c.base.sha256 : undefined;
  if (c.kind === "delete") return { requested: c.target.requested, kind: "delete", bytes: 0, before };
  const bytes = typeof c.data === "string" ? Buffer.byteLength(c.data) : c.data.length;
  return {
    requested: c.target.requested,
    kind: s.create ? "create" : "write",
    bytes,
    before,
    after: postHash(s)!,
  };
}

async function stage(change: Change): Promise<Staged> {
  const { target } = change;
  const s: Staged = { change, create: false, madeDirs: [], committed: false };
  try {
    if (change.kind === "write" && change.createParents) s.madeDirs = await ensureParentDirs(target);
    const st = await fs.lstat(target.real, { bigint: true }).catch((err) => {
      if (isErrno(err, "ENOENT")) return undefined;
      throw err;
    });
    if (!st) {
      if (change.kind === "delete" || change.base) {
        checkExpected({ requested: target.requested, expected: change.base?.sha256, current: undefined });
        throw new ToolError("not_found", { reason: "file", path: target.requested });
      }
      s.create = true;
    } else {
      if (change.kind === "write" && change.base === null)
        throw new ToolError("exists", { path: target.requested });
      if (st.isDirectory()) throw new ToolError("not_file", { path: target.requested });
      if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    }
    // The backup of the old version and the temp of the new one are independent: made concurrently.
    const [backup, temp] = await Promise.allSettled([
      st ? makeBackup(s, change.base ?? undefined) : undefined,
      change.kind === "write"
        ? stageWrite(target, change.data, { exclusive: s.create, mode: change.mode }).then((t) => {
            s.temp = t;
          })
        : undefined,
    ]);
    if (backup.status === "rejected") throw backup.reason;
    if (temp.status === "rejected") throw temp.reason;
    if (change.kind === "write" && change.setMode !== undefined) await fs.chmod(s.temp!.temp, change.setMode);
    return s;
  } catch (err) {
    await cleanUp([s]);
    if (s.journalLink) await fs.unlink(s.journalLink).catch(() => {});
    await removeMadeDirs(s.madeDirs, s.change.target);
    throw err;
  }
}

/** Links the current inode to a hidden backup name and checks it is the version the change expects. */
async function makeBackup(s: Staged, base: Snapshot | undefined): Promise<void> {
  const { target } = s.change;
  const backup = tempPathBeside(target.real);
  // The undo journal of the call takes the same inode too, while the parent is pinned anyway.
  const journalDest = await target.change?.reserveBlob(target.root);
  try {
    await withPinnedParent(target, async (dir, name) => {
      await hardLink(target.root, dir.at(name), dir.at(path.basename(backup)));
      if (!journalDest) return;
      try {
        // Synchronously: the journal's own link, without a second thread-pool round trip per file.
        hardLinkSync(target.root, dir.at(path.basename(backup)), journalDest);
        s.journalLink = journalDest;
      } catch {
        // Another device (or no links): keepFile copies it.
      }
    });
  } catch (err) {
    if (!isNoHardLinks(err) && !isErrno(err, "EXDEV")) throw err;
    // No hard links here: keep a copy of the snapshot's bytes instead (same content, mode, new inode).
    const snap = base ?? (await readSnapshot(target));
    if (!snap) throw new ToolError("not_found", { reason: "file", path: target.requested });
    const copy = await stageWrite(target, snap.data, { mode: snap.mode });
    s.backup = copy.temp;
    s.held = snap.fingerprint;
    if (base) await ensureUnchanged(target, base, snap.fingerprint);
    return;
  }
  s.backup = backup;
  const held = fingerprintOf(await fs.lstat(backup, { bigint: true }));
  // The link bumped the inode's ctime; compare the rest, and re-hash if the content may have moved on.
  if (base && !sameIgnoringCtime(held, base.fingerprint)) await ensureSameContent(target, base, backup);
  s.held = held;
}

function sameIgnoringCtime(a: Fingerprint, b: Fingerprint): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Refuses unless the file at `at` still has the content of `base` (the precondition message otherwise). */
async function ensureSameContent(target: ResolvedPath, base: Snapshot, at: string): Promise<void> {
  const now = await readSnapshot({ ...target, real: at });
  checkExpected({
    requested: target.requested,
    expected: base.sha256,
    current: now,
    currentText: now?.data.toString("utf8"),
    basedOn: base.data.toString("utf8"),
  });
}

async function ensureUnchanged(target: ResolvedPath, base: Snapshot, held: Fingerprint): Promise<void> {
  const st = await fs.lstat(target.real, { bigint: true }).catch(() => undefined);
  if (st && sameFingerprint(fingerprintOf(st), held)) return;
  await ensureSameContent(target, base, target.real);
}

async function commitOne(s: Staged): Promise<void> {
  const c = s.change;
  const { target } = c;
  if (!s.create && s.held && c.base !== undefined) {
    // Last look before replacing: still the version the change was computed from?
    const st = await fs.lstat(target.real, { bigint: true }).catch(() => undefined);
    if (!st || !sameFingerprint(fingerprintOf(st), s.held))
      await ensureSameContent(target, c.base!, target.real);
  }
  const tempName = s.temp ? path.basename(s.temp.temp) : "";
  await withPinnedParent(target, async (dir, name) => {
    if (c.kind === "delete") {
      await fs.unlink(dir.at(name));
      return;
    }
    if (s.create) {
      try {
        await placeNoReplace(target.root, dir.at(tempName), dir.at(name));
      } catch (err) {
        if (isErrno(err, "EEXIST"))
          throw new ToolError("conflict", { reason: "created_meanwhile", path: target.requested });
        throw err;
      }
    } else {
      await fs.rename(dir.at(tempName), dir.at(name));
    }
  });
}

/** Undoes committed changes newest first; returns what could not be restored (for the message). */
async function rollBack(staged: Staged[]): Promise<string[]> {
  const failures: string[] = [];
  for (const s of [...staged].reverse()) {
    if (!s.committed) continue;
    const { target } = s.change;
    try {
      const backupName = s.backup ? path.basename(s.backup) : "";
      await withPinnedParent(target, async (dir, name) => {
        if (s.create) {
          await fs.unlink(dir.at(name));
        } else if (s.change.kind === "delete") {
          await placeNoReplace(target.root, dir.at(backupName), dir.at(name));
        } else {
          await fs.rename(dir.at(backupName), dir.at(name));
          s.backup = undefined;
        }
      });
    } catch {
      failures.push(
        `${printable(target.requested)} (its previous version is kept as ${s.backup ? path.basename(s.backup) : "—"} in the same directory)`,
      );
      s.backup = undefined; // keep it: it is the only copy of the old version
    }
  }
  return failures;
}

async function cleanUp(staged: Staged[]): Promise<void> {
  for (const s of staged) {
    // A committed temp was renamed (or linked and unlinked) onto its target: nothing left to remove.
    if (s.temp && !s.committed) await discardStaged(s.temp);
    if (s.backup) await fs.unlink(s.backup).catch(() => {});
  }
}
