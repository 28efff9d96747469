/**
 * The change journal, first piece: multi-file changes that survive a killed process.
 *
 * Layout (one journal per root, outside every root, in the user's state directory, owner-only; the names
 * are journal-names.ts's):
 *
 *     <state dir>/journal/<sha256(root real path), 32 hex>/
 *         root                 the root's real path (for people; the records carry it too)
 *         <id>.0, <id>.1, ...  the pre-images an intent names: the undo journal's own (change-log.ts; the
 *                              intent takes the id of the tool call's change), or its own when no call
 *                              records one
 *         intents/<id>.intent  "mcpfs-intent 1 <sha256 of the body>\n<body JSON>": which files the change
 *                              replaces, each with its pre-image and the hashes before and after; written and
 *                              fsynced (with both directories) before the first rename, removed after the
 *                              last (its removal is the commit)
 *         intents/<id>.intent.refused  a record whose hash did not match (kept for inspection, never applied)
 *         intents/<id>.intent.kept     a rollback that left a file alone because it changed after the crash
 *
 * An intent whose process is gone is rolled back from its pre-images (at startup, and before the next
 * journaled change to the same root): a file that is its new version gets its old bytes and mode back, a
 * created file is removed; a file that is neither (someone changed it after the crash) is left alone and
 * logged, and the record is kept as `.intent.kept`. An intent whose call went on to record its change is
 * complete (only the removal was lost): removed. Restores go through the same pinned-directory operations
 * as writes, only inside the root the change was made in, only while it is writable. The hash catches a
 * damaged or hand-edited record; it is not a signature (whoever can write the state directory can recompute
 * it — that is the user: the directory is 0700 and outside every root, so no tool reaches it).
 */
import { createHash, randomBytes } from "node:crypto";
import fsSync, { constants } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { isErrno } from "../errors.js";
import { stageWrite } from "../fs/atomic-write.js";
import { sha256Of } from "../fs/hash.js";
import { removeMadeDirs } from "../fs/mkdirs.js";
import { isLinkRefused, syncDir, tempPathBeside, withPinnedParent } from "../fs/safe-open.js";
import type { Logger } from "../log.js";
import type { ResolvedPath, Root, Workspace } from "../workspace.js";
import { ChangeLog, type ChangeRecorder, type KeptFile } from "./change-log.js";
import { idTime, intentPathOf, intentsDirOf, newChangeId, parseJournalName } from "./journal-names.js";

/** An intent of another host, or an empty one (killed before its bytes), is abandoned after this long. */
const ABANDONED_MS = 15 * 60 * 1000;
const MAGIC = "mcpfs-intent 1";
const POSIX = process.platform !== "win32";
const fsyncFd = promisify(fsSync.fsync);

/** One file of a change, as the intent records it. */
interface JournalFile {
  /** Real path of the root the file is in, and the file's path inside it (`/` separators). */
  root: string;
  rel: string;
  /** The version being replaced: its pre-image (`<id>.<blob>` beside the intent); `null`: did not exist. */
  pre: { blob: string; sha256: string; mode: number; size: number } | null;
  /** The version being committed; `null`: the file is deleted. */
  post: { sha256: string } | null;
  /** Parent directories the change created for it (outermost first), removed again while empty. */
  madeDirs?: string[];
}

interface IntentBody {
  v: 1;
  id: string;
  time: string;
  /** Who is making the change: an intent of a live process is never rolled back by another. */
  owner: { host: string; pid: number; token: string };
  files: JournalFile[];
}

/** What the transaction hands over per file, before its first rename. */
export interface PreparedFile {
  target: ResolvedPath;
  /** Hidden hard link (or copy) beside the target holding the version replaced; absent for a create. */
  backup?: string;
  /** The replaced version's bytes when already in memory (saves a read for a cross-device copy). */
  preData?: Buffer;
  preSha256?: string;
  /** sha256 of the new content; `null` for a delete. */
  postSha256: string | null;
  /** The undo journal's pre-image of the version replaced, when the call records a change. */
  kept?: KeptFile;
  /** Real paths of the parent directories created for it, outermost first. */
  madeDirs?: readonly string[];
}

export interface JournalOptions {
  /** The state directory: journals go to `<stateDir>/journal/`. */
  stateDir: string;
  log: Logger;
  /** Tests only: never hard-link pre-images (as across devices). */
  copyPreImages?: boolean;
  /** Undo journal caps per root (change-log.ts has the defaults). */
  maxBytes?: number;
  maxDays?: number;
  minAgeMs?: number;
}

/** An intent written and durable; `commit` after the last rename, `discard` after an in-memory rollback. */
export interface Intent {
  readonly id: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

interface RecoveryReport {
  rolledBack: string[];
  refused: string[];
  kept: string[];
}

/** The journals of one process: one directory per root under the state directory. */
export class Journal {
  /** Marks this process's intents (a pid alone can be reused, e.g. pid 1 in every container). */
  private readonly token = randomBytes(8).toString("hex");
  private readonly base: string;
  /** The undo journal: one change per call of a mutating tool, in the same per-root directories. */
  readonly changes: ChangeLog;

  constructor(private readonly opts: JournalOptions) {
    this.base = path.join(opts.stateDir, "journal");
    this.changes = new ChangeLog({
      log: opts.log,
      dirOf: (real) => this.dirOf(real),
      ensureRootDir: (root) => this.ensureRootDir(root),
      maxBytes: opts.maxBytes,
      maxDays: opts.maxDays,
      minAgeMs: opts.minAgeMs,
      copyPreImages: opts.copyPreImages,
    });
  }

  /** The journal directory of a root (whether or not it exists yet). */
  dirOf(rootReal: string): string {
    return path.join(this.base, createHash("sha256").update(rootReal).digest("hex").slice(0, 32));
  }

  /**
   * Records the intent of a change to `files` (all staged, no target touched yet) durably, before its first
   * rename: beside the pre-images of the call's `change` (named by its id, naming those pre-images), else
   * with pre-images of its own in the first file's root journal. Before that, rolls back what an earlier,
   * killed process left uncommitted in the journals of the roots involved.
   */
  async begin(files: readonly PreparedFile[], ws: Workspace, change?: ChangeRecorder): Promise<Intent> {
    const roots = [...new Set(files.map((f) => f.target.root))];
    for (const r of roots) await this.recoverRoot(r, ws);
    const first = files[0]!.target.root;
    const base = change
      ? await change.place(first)
      : path.join(await this.changes.rootDir(first), newChangeId());
    const id = path.basename(base);
    const own = change ? [] : files.map((_, i) => String(i)).filter((_, i) => files[i]!.backup);
    const recorded: JournalFile[] = [];
    try {
      for (const [i, f] of files.entries()) recorded.push(await this.preImageOf(base, String(i), f, !change));
      const body: IntentBody = {
        v: 1,
        id,
        time: new Date().toISOString(),
        owner: { host: os.hostname(), pid: process.pid, token: this.token },
        files: recorded,
      };
      // Copies the undo journal made are not fsynced by it: they are, with the intent, before a rename.
      const copies = change ? files.filter((f) => f.kept?.copied).map((f) => `${base}.${f.kept!.blob}`) : [];
      await writeIntent(base, encodeRecord(body), copies);
    } catch (err) {
      await fs.rm(`${intentPathOf(base)}.tmp`, { force: true }).catch(() => {});
      await removeIntent(base, own).catch(() => {});
      throw err;
    }
    return {
      id,
      // Never throws: the files are already new. The intent must go, or the next start would roll a
      // finished change back (a call that records a change is also known complete by its record).
      commit: async () => {
        // Not fsynced: a kill cannot lose it, and a power loss that does only rolls a finished change back.
        await removeIntent(base, own).catch((err) =>
          this.opts.log.error(
            `journal: change ${id} is complete but its intent could not be removed: ${err}`,
          ),
        );
      },
      discard: () => removeIntent(base, own),
    };
  }

  /** Rolls back the abandoned, uncommitted changes of every writable root (at startup). */
  async recoverAll(ws: Workspace): Promise<RecoveryReport> {
    const all: RecoveryReport = { rolledBack: [], refused: [], kept: [] };
    for (const r of ws.roots) {
      const one = await this.recoverRoot(r, ws);
      all.rolledBack.push(...one.rolledBack);
      all.refused.push(...one.refused);
      all.kept.push(...one.kept);
    }
    return all;
  }

  /** Rolls back the abandoned, uncommitted changes in one root's journal. Read-only roots are never touched. */
  async recoverRoot(root: Root, ws: Workspace): Promise<RecoveryReport> {
    const report: RecoveryReport = { rolledBack: [], refused: [], kept: [] };
    if (root.mode !== "rw" || root.kind === "reference") return report;
    const rootDir = this.dirOf(root.real);
    let names: string[];
    try {
      names = await fs.readdir(intentsDirOf(rootDir));
    } catch (err) {
      if (isErrno(err, "ENOENT", "ENOTDIR")) return report;
      throw err;
    }
    for (const name of names.sort()) {
      const p = parseJournalName(name);
      // Killed before its rename: nothing was touched; removed once surely abandoned.
      if (p?.kind === "partial" && Date.now() - idTime(p.id) > ABANDONED_MS)
        await fs.rm(path.join(intentsDirOf(rootDir), name), { force: true });
      if (p?.kind !== "intent") continue;
      const outcome = await this.recoverIntent(root, path.join(rootDir, p.id), ws);
      if (outcome) report[outcome].push(p.id);
    }
    return report;
  }

  /** One intent found in a root's journal: rolled back if its process is gone; what became of it. */
  private async recoverIntent(
    root: Root,
    base: string,
    ws: Workspace,
  ): Promise<keyof RecoveryReport | undefined> {
    const id = path.basename(base);
    const intent = intentPathOf(base);
    const text = await fs.readFile(intent, "utf8").catch((err) => {
      if (isErrno(err, "ENOENT")) return undefined; // committed meanwhile by its own process
      throw err;
    });
    if (text === undefined) return undefined;
    if (text === "") {
      // Its bytes lost to a power loss before the fsync: no target was touched. Removed once surely abandoned.
      if (Date.now() - idTime(id) > ABANDONED_MS) await removeIntent(base, []);
      return undefined;
    }
    const body = decodeRecord(text, id);
    if (!body) {
      this.opts.log.error(
        `journal: the record of change ${id} for ${root.path} does not match its hash; not applied (kept as ${id}.intent.refused)`,
      );
      await fs.rename(intent, `${intent}.refused`).catch(() => {});
      return "refused";
    }
    if (!this.abandoned(body)) return undefined;
    // Its call went on to record the change: complete, only the intent's removal was lost.
    if (await this.changes.isRecorded(path.dirname(base), id)) {
      await removeIntent(base, []);
      return undefined;
    }
    const outcome = await this.rollBack(base, body, ws);
    if (outcome === "later") return undefined;
    if (outcome === "kept") {
      await fs.rename(intent, `${intent}.kept`).catch(() => {});
      return "kept";
    }
    // The pre-images go too: no record will ever claim them.
    await removeIntent(
      base,
      body.files.flatMap((f) => (f.pre ? [f.pre.blob] : [])),
    );
    this.opts.log.warn(
      `journal: rolled back change ${id} (${body.files.length} files in ${root.path}) left incomplete by a stopped process`,
    );
    return "rolledBack";
  }

  private abandoned(body: IntentBody): boolean {
    const { owner } = body;
    if (owner.token === this.token) return false; // ours: in flight (or a failed rollback, retried at restart)
    if (owner.host !== os.hostname()) return Date.now() - Date.parse(body.time) > ABANDONED_MS;
    if (owner.pid === process.pid) return true; // an earlier process that had our pid
    try {
      process.kill(owner.pid, 0);
      return false;
    } catch (err) {
      return isErrno(err, "ESRCH");
    }
  }

  /**
   * Puts every file of an uncommitted change back, newest first. "later": a root of the change is not a
   * writable root of this process (nothing touched, retried when it is); "kept": some file had changed
   * after the crash and was left alone.
   */
  private async rollBack(base: string, body: IntentBody, ws: Workspace): Promise<"done" | "kept" | "later"> {
    const log = this.opts.log;
    const targets: ResolvedPath[] = [];
    for (const f of body.files) {
      const root = ws.roots.find((r) => r.real === f.root && r.mode === "rw" && r.kind !== "reference");
      if (!root) return "later"; // not served writable now: retried when it is
      const real = safeRelative(f.rel) ? path.join(root.real, ...f.rel.split("/")) : undefined;
      const t = real ? await ws.resolve(real, { intent: "write" }).catch(() => undefined) : undefined;
      if (!t || t.real !== real || t.root.real !== root.real) {
        log.error(
          `journal: change ${body.id} names a file that is not a writable file of ${root.path}; not applied (kept)`,
        );
        return "kept";
      }
      targets.push(t);
    }
    // Every pre-image must be intact before anything is restored.
    for (const f of body.files) {
      if (!f.pre) continue;
      const data = /^\d+$/.test(f.pre.blob)
        ? await fs.readFile(`${base}.${f.pre.blob}`).catch(() => undefined)
        : undefined;
      if (!data || sha256Of(data) !== f.pre.sha256) {
        log.error(`journal: a pre-image of change ${body.id} is missing or damaged; not applied (kept)`);
        return "kept";
      }
    }
    let kept = false;
    for (let i = body.files.length - 1; i >= 0; i--) {
      const f = body.files[i]!;
      const t = targets[i]!;
      const now = await currentHash(t);
      if (now === (f.pre?.sha256 ?? null)) continue; // still (or again) its old version
      if (now !== (f.post?.sha256 ?? null)) {
        log.warn(
          `journal: ${t.real} changed after change ${body.id} was interrupted; left as it is (its previous version stays in the journal)`,
        );
        kept = true;
        continue;
      }
      if (f.pre) await restoreFile(t, `${base}.${f.pre.blob}`, f.pre.mode, now !== null);
      else await withPinnedParent(t, (d, name) => fs.unlink(d.at(name)));
    }
    for (const d of new Set(targets.map((t) => path.dirname(t.real)))) await syncDir(d);
    for (let i = body.files.length - 1; i >= 0; i--) {
      const made = (body.files[i]!.madeDirs ?? []).filter(safeRelative);
      const t = targets[i]!;
      await removeMadeDirs(
        made.map((rel) => path.join(t.root.real, ...rel.split("/"))),
        t,
      );
    }
    return kept ? "kept" : "done";
  }

  async ensureRootDir(root: Pick<Root, "real">): Promise<string> {
    const dir = this.dirOf(root.real);
    if (await exists(path.join(dir, "root"))) return dir;
    for (const d of [this.opts.stateDir, this.base, dir]) {
      await fs.mkdir(d, { recursive: true, mode: 0o700 });
      if (POSIX && d !== this.opts.stateDir) await fs.chmod(d, 0o700);
    }
    // Two first changes of a root at once (or two processes) both get here: the one that loses finds it made.
    await writeDurable(path.join(dir, "root"), `${root.real}\n`).catch((err) => {
      if (!isErrno(err, "EEXIST")) throw err;
    });
    return dir;
  }

  /**
   * What the intent says of one file. The version replaced: the pre-image the call's change already kept,
   * or (`own`) one of its own as `<base>.<blob>`: a hard link of the held inode, else an fsynced 0600 copy.
   */
  private async preImageOf(base: string, blob: string, f: PreparedFile, own: boolean): Promise<JournalFile> {
    const { target } = f;
    const entry = {
      root: target.root.real,
      rel: target.relative,
      post: f.postSha256 === null ? null : { sha256: f.postSha256 },
      ...(f.madeDirs?.length
        ? { madeDirs: f.madeDirs.map((d) => path.relative(target.root.real, d).split(path.sep).join("/")) }
        : {}),
    };
    if (!f.backup) return { ...entry, pre: null };
    if (!own) {
      const k = f.kept;
      if (!k) throw new Error(`journal: no pre-image was kept of ${target.real}`);
      const sha256 = k.sha256 ?? f.preSha256 ?? sha256Of(await fs.readFile(`${base}.${k.blob}`));
      return { ...entry, pre: { blob: k.blob, sha256, mode: k.mode, size: k.size } };
    }
    const dest = `${base}.${blob}`;
    let linked = false;
    if (!this.opts.copyPreImages) {
      try {
        await withPinnedParent(target, (d) => fs.link(d.at(path.basename(f.backup!)), dest));
        linked = true;
      } catch (err) {
        if (!isLinkRefused(err)) throw err;
      }
    }
    const st = await fs.lstat(f.backup);
    let sha256 = f.preSha256;
    if (!linked) {
      // Across devices (or no hard links): copy. The backup beside the target is the version replaced.
      const data = f.preData ?? (await fs.readFile(f.backup));
      sha256 ??= sha256Of(data);
      await writeDurable(dest, data);
    }
    sha256 ??= sha256Of(await fs.readFile(dest));
    return { ...entry, pre: { blob, sha256, mode: st.mode & 0o7777, size: Number(st.size) } };
  }
}

/**
 * Writes the intent (a new 0600 file in `intents/`) and makes it durable together with what it names: its
 * bytes, the `copies` (pre-images copied, not linked) and the names of the intent and of every pre-image in
 * the two directories, all fsynced at once.
 */
async function writeIntent(base: string, text: string, copies: readonly string[]): Promise<void> {
  const p = intentPathOf(base);
  // Whole or absent: written beside and renamed (a kill between create and write must not leave an empty
  // intent, which could not say whose it is). A rename makes no new inode, unlike the create.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
  let fd: number;
  try {
    fd = fsSync.openSync(`${p}.tmp`, flags, 0o600);
  } catch (err) {
    if (!isErrno(err, "ENOENT")) throw err;
    // Recursive: another call may make it at the same moment.
    fsSync.mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
    fd = fsSync.openSync(`${p}.tmp`, flags, 0o600);
  }
  try {
    fsSync.writeFileSync(fd, text);
    fsSync.renameSync(`${p}.tmp`, p);
    const dirs = [path.dirname(p), path.dirname(base)].map(syncDir);
    await Promise.all([fsyncFd(fd), ...dirs, ...copies.map(syncFile)]);
  } finally {
    fsSync.closeSync(fd);
  }
}

async function syncFile(p: string): Promise<void> {
  const fh = await fs.open(p, "r+");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Removes an intent, then the pre-images of its own (`<base>.<blob>`); a missing one is no error. */
async function removeIntent(base: string, ownBlobs: readonly string[]): Promise<void> {
  await fs.rm(intentPathOf(base), { force: true });
  for (const b of ownBlobs) await fs.rm(`${base}.${b}`, { force: true });
}

function encodeRecord(body: IntentBody): string {
  const json = JSON.stringify(body);
  return `${MAGIC} ${sha256Of(json)}\n${json}\n`;
}

/** The record's body, or undefined when its hash (or shape) does not hold. */
function decodeRecord(text: string, id: string): IntentBody | undefined {
  const nl = text.indexOf("\n");
  const head = text.slice(0, nl);
  const json = text.slice(nl + 1).replace(/\n$/, "");
  if (nl < 0 || head !== `${MAGIC} ${sha256Of(json)}`) return undefined;
  try {
    const body = JSON.parse(json) as IntentBody;
    if (body.v !== 1 || body.id !== id || !Array.isArray(body.files)) return undefined;
    return body;
  } catch {
    return undefined;
  }
}

/** A root-relative path with no way out of the root. */
function safeRelative(rel: unknown): rel is string {
  if (typeof rel !== "string" || rel === "" || rel.includes("\0") || rel.includes("\\")) return false;
  return rel.split("/").every((s) => s !== "" && s !== "." && s !== "..") && !path.isAbsolute(rel);
}

/** sha256 of the regular file at `t`; `null` when nothing is there; a non-file never matches a hash. */
async function currentHash(t: ResolvedPath): Promise<string | null> {
  const st = await fs.lstat(t.real).catch((err) => {
    if (isErrno(err, "ENOENT")) return undefined;
    throw err;
  });
  if (!st) return null;
  if (!st.isFile()) return "(not a regular file)";
  return sha256Of(await fs.readFile(t.real));
}

/**
 * Puts a pre-image back at `t`: the kept inode itself when it can be linked into the target's directory
 * (exact bytes, mode, owner), else a copy of its bytes with its mode; either by one rename through the
 * pinned parent (a link when nothing is there, so a file created meanwhile is never replaced).
 */
async function restoreFile(t: ResolvedPath, blob: string, mode: number, replace: boolean): Promise<void> {
  let tempName = path.basename(tempPathBeside(t.real));
  try {
    await withPinnedParent(t, (d) => fs.link(blob, d.at(tempName)));
  } catch (err) {
    if (!isLinkRefused(err)) throw err;
    tempName = (await stageWrite(t, await fs.readFile(blob), { mode })).tempName;
  }
  await withPinnedParent(t, async (d, name) => {
    try {
      if (POSIX) await fs.chmod(d.at(tempName), mode);
      if (replace) await fs.rename(d.at(tempName), d.at(name));
      else {
        await fs.link(d.at(tempName), d.at(name));
        await fs.unlink(d.at(tempName));
      }
    } catch (err) {
      await fs.unlink(d.at(tempName)).catch(() => {});
      throw err;
    }
  });
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

/** Writes a new owner-only file and fsyncs it. */
async function writeDurable(p: string, data: string | Uint8Array): Promise<void> {
  const fh = await fs.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}
