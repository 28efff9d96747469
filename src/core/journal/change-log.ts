/**
 * The undo journal: every call of a mutating tool records one *change* — which entries it touched, and for
 * each what was there before (the pre-image) and what it left (the post-image) — so `undo_change` can put
 * the tree back exactly.
 *
 * Layout: flat, in the journal directory of the root the change first kept a pre-image in (journal.ts; 0700,
 * in the user's state dir, outside every root), every file named by the change's id (journal-names.ts):
 *
 *     <id>.0, <id>.1, ...  pre-images: a replaced or deleted file's old inode hard-linked here before the
 *                          rename that replaces it (a copy across devices or without hard links); a deleted
 *                          tree renamed here whole (one rename; copied then removed across devices)
 *     <seg>.log            the records: one line per change, "mcpfs-change 1 <sha256> <body JSON>", appended
 *                          last (change-records.ts): no record, no change; a line that fails its hash (cut
 *                          short or edited) is never applied
 *     <id>.undone          the id of the change that undid this one
 *
 * How the recorder reaches the mutators: a change belongs to one tool call, and every core mutator (the
 * transaction, mkdir, move, tree delete, copy) notes what it did in the call's recorder. The runner gives
 * the call a view of its workspace (`Workspace.forCall`) whose resolved paths carry the recorder
 * (`ResolvedPath.change`), and a mutator records on the path it changes: no tool threads it through, and
 * none can forget to. (An AsyncLocalStorage did this before; on Node 20 it put a hook on every promise of
 * the process, about 0.1 ms of CPU per call.) A path resolved outside a call (startup recovery, tests of
 * the core) records nothing.
 *
 * What a change does not promise: records are not fsynced (a power loss may lose the newest one; the files
 * themselves are as durable as ever); a deleted tree is checked on undo by its shape (names, kinds, modes,
 * sizes, link targets), files by sha256; a moved entry by its identity (device, inode, size, mtime).
 */
import fsSync, { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { sha256Of } from "../fs/hash.js";
import { hardLink, isLinkRefused, withPinnedParent } from "../fs/safe-open.js";
import type { Logger } from "../log.js";
import { namesOf, type ResolvedPath, type Root } from "../root.js";
import { type RecordSet, RecordWriter, readRecords, TAMPERED } from "./change-records.js";
import { CHANGE_ID, idTime, intentsDirOf, newChangeId, parseJournalName } from "./journal-names.js";

const POSIX = process.platform !== "win32";

/** Pre-images without a record (or an intent) are a kill's leftover once their change is this old. */
const ABANDONED_MS = 15 * 60 * 1000;
export const DEFAULT_JOURNAL_MAX_BYTES = 1024 ** 3;
export const DEFAULT_JOURNAL_MAX_DAYS = 7;
export const DEFAULT_JOURNAL_MIN_AGE_MS = 3600 * 1000;
/** A record line beside its JSON: "mcpfs-change 1 <sha256> " and the newline (change-records.ts). */
const RECORD_LINE_BYTES = "mcpfs-change 1 ".length + 64 + 2;
/** What a record not written yet is taken to cost, before it is (its JSON: ~570 bytes for one path). */
const RECORD_GUESS_BASE = 400;
const RECORD_GUESS_PER_ENTRY = 600;

/** What was (or is) at one path. `null` in an entry: nothing was there. */
export type EntryState =
  | {
      type: "file";
      /** sha256 of the bytes; for a kept pre-image whose hash the change did not know, `held` instead. */
      sha256?: string;
      mode: number;
      size: number;
      blob?: string;
      /** A linked pre-image's identity (inode, size, mtime): checked on undo instead of re-reading it. */
      held?: { ino: number; size: number; mtimeMs: number };
    }
  | { type: "link"; target: string }
  | { type: "dir"; mode: number }
  | { type: "tree"; mode: number; shape: string; size: number; blob?: string };

/** One path a change touched, by its root's real path and its path inside (`/` separators). */
export interface PathEntry {
  op: "path";
  root: string;
  rel: string;
  pre: EntryState | null;
  post: EntryState | null;
}

/** An entry moved (renamed), with the identity it had once moved. */
export interface MoveEntry {
  op: "move";
  root: string;
  from: string;
  toRoot: string;
  to: string;
  kind: "file" | "dir" | "symlink" | "other";
  method: "git" | "fs";
  id: { dev: number; ino: number; size: number; mtimeMs: number };
}

export type ChangeEntry = PathEntry | MoveEntry;

export interface ChangeBody {
  v: 1;
  id: string;
  time: string;
  tool: string;
  /** Bytes of pre-images this change keeps (its share of the cap). */
  size: number;
  /** false: larger than the cap, its pre-images were dropped at once. */
  undoable: boolean;
  /** The change this one undid. */
  undoOf?: string;
  entries: ChangeEntry[];
}

export interface ChangeLogOptions {
  log: Logger;
  /** The journal directory of a root (journal.ts decides where). */
  dirOf(rootReal: string): string;
  /** Makes (owner-only) the journal directory of a root and returns it. */
  ensureRootDir(root: Pick<Root, "real">): Promise<string>;
  /** @default DEFAULT_JOURNAL_MAX_BYTES (per root) */
  maxBytes?: number;
  /** @default DEFAULT_JOURNAL_MAX_DAYS */
  maxDays?: number;
  /** A change younger than this is never dropped for room: the call is refused (0: off). @default DEFAULT_JOURNAL_MIN_AGE_MS */
  minAgeMs?: number;
  /** Tests only: never hard-link pre-images (as across devices). */
  copyPreImages?: boolean;
}

/** A file's pre-image as the recorder kept it: `<base>.<blob>`; `copied`: not the old inode itself. */
export interface KeptFile {
  blob: string;
  sha256?: string;
  mode: number;
  size: number;
  copied: boolean;
}

/** A change as `list_changes` shows it. */
export interface ChangeSummary {
  id: string;
  time: string;
  tool: string;
  /** Root real path and path inside, per path touched (a move: both). */
  paths: { root: string; rel: string }[];
  size: number;
  undoable: boolean;
  /** Why not undoable. */
  reason?: string;
  undoOf?: string;
  undoneBy?: string;
}

export function relOf(root: Root, real: string): string {
  return path.relative(root.real, real).split(path.sep).join("/");
}

/**
 * `relOf` with each existing name spelled as it is on disk: on a case-insensitive volume a client may say
 * `MADE` for `made`, and an undo must bring back `made`. Call it while the entry still exists.
 */
export function onDiskRelOf(root: Root, real: string): string {
  const rel = relOf(root, real);
  if (!namesOf(root).foldsCase || rel === "") return rel;
  const parts = rel.split("/");
  let dir = root.real;
  for (let i = 0; i < parts.length; i++) {
    let names: string[];
    try {
      names = fsSync.readdirSync(dir);
    } catch {
      break;
    }
    const want = parts[i]!;
    const hit = names.includes(want) ? want : names.find((n) => namesOf(root).equal(n, want));
    if (hit === undefined) break;
    parts[i] = hit;
    dir = path.join(dir, hit);
  }
  return parts.join("/");
}

/** The changes of one process: recorders for calls, listing, caps. One per Journal. */
export class ChangeLog {
  readonly maxBytes: number;
  readonly maxAgeMs: number;
  readonly minAgeMs: number;
  /** Per root journal directory: each kept change (read once, then kept up to date). */
  private readonly sizes = new Map<string, Map<string, Kept>>();
  private readonly loads = new Map<string, Promise<Map<string, Kept>>>();
  /** Ids of this process's calls still recording (their pre-images are never leftovers, however old). */
  private readonly live = new Set<string>();
  /** Per root journal directory: the record segments known, with the newest id in each. */
  private readonly segments = new Map<string, Map<string, string>>();
  /** Per root journal directory: this process's record segment. */
  private readonly writers = new Map<string, RecordWriter>();
  private readonly totals = new Map<string, number>();

  constructor(readonly opts: ChangeLogOptions) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_JOURNAL_MAX_BYTES;
    this.maxAgeMs = (opts.maxDays ?? DEFAULT_JOURNAL_MAX_DAYS) * 24 * 3600 * 1000;
    this.minAgeMs = opts.minAgeMs ?? DEFAULT_JOURNAL_MIN_AGE_MS;
  }

  private readonly madeRootDirs = new Map<string, string>();

  /** The journal directory of a root, made (owner-only) on first use in this process. */
  async rootDir(root: Pick<Root, "real">): Promise<string> {
    let dir = this.madeRootDirs.get(root.real);
    if (!dir) {
      dir = await this.opts.ensureRootDir(root);
      this.madeRootDirs.set(root.real, dir);
    }
    return dir;
  }

  recorder(tool: string, undoOf?: string): ChangeRecorder {
    const rec = new ChangeRecorder(this, tool, undoOf);
    this.live.add(rec.id);
    return rec;
  }

  /** A recorder is finished (recorded or not): its files are no longer in the making. */
  finished(id: string): void {
    this.live.delete(id);
  }

  /** The kept changes of these roots, newest first (records that fail their hash are skipped). */
  async list(roots: readonly Root[]): Promise<{ body: ChangeBody; summary: ChangeSummary }[]> {
    const out: { body: ChangeBody; summary: ChangeSummary }[] = [];
    const seen = new Set<string>();
    for (const r of roots) {
      const rootDir = this.opts.dirOf(r.real);
      if (seen.has(rootDir)) continue;
      seen.add(rootDir);
      const names = await readdirOrEmpty(rootDir);
      const undone = new Set(names.filter((n) => parseJournalName(n)?.kind === "undone"));
      for (const [id, json] of (await readRecords(rootDir, names)).records) {
        const body = decode(json, id);
        if (!body) continue;
        const base = path.join(rootDir, id);
        const by = undone.has(`${id}.undone`) ? await readUndone(base) : undefined;
        out.push({ body, summary: summarize(body, by) });
      }
    }
    return out.sort((a, b) => (a.body.id < b.body.id ? 1 : a.body.id > b.body.id ? -1 : 0));
  }

  /**
   * One change by id in these roots' journals: its record and `base` (its files are `<base>.<suffix>`);
   * `tampered` when the hash fails.
   */
  async find(
    roots: readonly Root[],
    id: string,
  ): Promise<{ body: ChangeBody; base: string; undoneBy?: string } | "tampered" | undefined> {
    if (!CHANGE_ID.test(id)) return undefined;
    for (const r of roots) {
      const rootDir = this.opts.dirOf(r.real);
      const json = (await readRecords(rootDir, await readdirOrEmpty(rootDir))).records.get(id);
      if (json === undefined) continue;
      const body = decode(json, id);
      const base = path.join(rootDir, id);
      return body ? { body, base, undoneBy: await readUndone(base) } : "tampered";
    }
    return undefined;
  }

  /** Whether change `id` has a record (any, even one that fails its hash) in a root's journal directory. */
  async isRecorded(rootDir: string, id: string): Promise<boolean> {
    return (await readRecords(rootDir, await readdirOrEmpty(rootDir))).records.has(id);
  }

  /** Notes that the change at `base` was undone by change `by` (not undone twice without `force`). */
  async markUndone(base: string, by: string): Promise<void> {
    await fs.writeFile(`${base}.undone`, `${by}\n`, { mode: 0o600 }).catch(() => {});
  }

  /** Appends a finished change's record to its root's journal (the last step: no record, no change). */
  append(rootDir: string, id: string, json: string): void {
    const segment = this.writerOf(rootDir).append(id, json);
    const segments = this.segments.get(rootDir);
    if (segments) segments.set(segment, id);
  }

  /**
   * Adds a finished change (its pre-images and its record) to its root's tally; drops the oldest past the
   * caps, never one younger than the minimum age (`admit` refused the calls that would need that; a record
   * larger than guessed leaves the journal over its cap instead).
   */
  async account(rootDir: string, id: string, kept: Kept, now = Date.now()): Promise<void> {
    const changes = await this.keptIn(rootDir);
    // A first call loads the directory, this change's record included: counted once.
    let total = (this.totals.get(rootDir) ?? 0) + kept.size - (changes.get(id)?.size ?? 0);
    changes.set(id, kept);
    // The map is in id order (loaded sorted, then appended as time goes on): the oldest come first.
    const drop: [string, Kept][] = [];
    for (const [old, k] of changes) {
      const tooOld = now - idTime(old) > this.maxAgeMs;
      if (!tooOld && total <= this.maxBytes) break;
      if (!tooOld && (old === id || now - idTime(old) < this.minAgeMs)) break;
      total -= k.size;
      drop.push([old, k]);
    }
    this.totals.set(rootDir, total);
    if (drop.length > 0) await this.drop(rootDir, drop);
  }

  /**
   * Refuses a change that needs `need` bytes in a root's journal (its pre-images and its record) when the room
   * could only be made by dropping a change younger than the minimum age: a flood of writes cannot push an
   * earlier change out of reach of undo. Called before anything changes on disk. `spare`: the change an undo
   * takes back (dropping it loses nothing the undo does not bring back).
   */
  async admit(rootDir: string, self: string, need: number, spare?: string, now = Date.now()): Promise<void> {
    if (this.minAgeMs <= 0) return;
    const changes = await this.keptIn(rootDir);
    let total = (this.totals.get(rootDir) ?? 0) + need - (changes.get(self)?.size ?? 0);
    for (const [old, k] of changes) {
      if (total <= this.maxBytes) return;
      const age = now - idTime(old);
      if (old !== self && old !== spare && age <= this.maxAgeMs && age < this.minAgeMs)
        throw journalFullError(old, k.tool ?? "a change", age, this.minAgeMs);
      total -= k.size;
    }
  }

  /**
   * Drops the oldest changes: the watermark first (they are gone as changes at once), then their files, then
   * the segments that hold only dropped records. A kill midway leaves files that the next load sweeps.
   */
  private async drop(rootDir: string, drop: readonly [string, Kept][]): Promise<void> {
    const changes = this.sizes.get(rootDir)!;
    const newest = drop.at(-1)![0];
    try {
      this.writerOf(rootDir).markDropped(newest);
    } catch (err) {
      this.opts.log.warn(`journal: could not drop changes up to ${newest}: ${err}`);
      return;
    }
    for (const [old, k] of drop) {
      changes.delete(old);
      await removeFiles(path.join(rootDir, old), k.blobs).catch((err) =>
        this.opts.log.warn(`journal: could not remove the files of dropped change ${old}: ${err}`),
      );
    }
    await this.removeDroppedSegments(rootDir, newest);
  }

  private writerOf(rootDir: string): RecordWriter {
    let w = this.writers.get(rootDir);
    if (!w) {
      w = new RecordWriter(rootDir);
      this.writers.set(rootDir, w);
    }
    return w;
  }

  private async removeDroppedSegments(rootDir: string, dropped: string): Promise<void> {
    const segments = this.segments.get(rootDir);
    if (!segments) return;
    for (const [name, newest] of segments) {
      if (newest > dropped || name === this.writers.get(rootDir)?.current) continue;
      segments.delete(name);
      await fs.rm(path.join(rootDir, name), { force: true }).catch(() => {});
    }
  }

  /**
   * The kept changes of a root's journal, read once per process. Pre-images no record or intent claims —
   * of a dropped change, or of a change older than ABANDONED_MS — are a kill's leftovers: removed, as are
   * segments that hold only dropped records. Names of other shapes are left as they are.
   */
  private keptIn(rootDir: string): Promise<Map<string, Kept>> {
    // One load per directory, also when two calls finish at once.
    let loading = this.loads.get(rootDir);
    if (!loading) {
      loading = this.load(rootDir);
      this.loads.set(rootDir, loading);
      loading.catch(() => this.loads.delete(rootDir));
    }
    return loading;
  }

  private async load(rootDir: string): Promise<Map<string, Kept>> {
    const changes = new Map<string, Kept>();
    let total = 0;
    const names = (await readdirOrEmpty(rootDir)).sort();
    const set = await readRecords(rootDir, names);
    for (const id of [...set.records.keys()].sort()) {
      const json = set.records.get(id);
      const body = decode(json, id);
      const size = (body?.size ?? 0) + recordBytes(json ?? "");
      if (body) changes.set(id, { size, blobs: blobsOf(body), tool: body.tool });
      total += size;
    }
    this.sizes.set(rootDir, changes);
    this.totals.set(rootDir, total);
    this.segments.set(rootDir, set.segments);
    await this.sweep(rootDir, names, set);
    await this.removeDroppedSegments(rootDir, set.dropped);
    return changes;
  }

  private async sweep(rootDir: string, names: readonly string[], set: RecordSet): Promise<void> {
    const byId = new Map<string, string[]>();
    for (const name of names) {
      const p = parseJournalName(name);
      if (p && p.kind !== "log") byId.set(p.id, [...(byId.get(p.id) ?? []), name]);
    }
    // Pre-images an intent names (pending, or set aside by recovery) are recovery's.
    const intents = new Set(
      (await readdirOrEmpty(intentsDirOf(rootDir))).map((n) => parseJournalName(n)?.id),
    );
    for (const [id, files] of byId) {
      if (set.records.has(id) || intents.has(id) || this.live.has(id)) continue;
      if (id > set.dropped && Date.now() - idTime(id) <= ABANDONED_MS) continue;
      for (const n of files) await fs.rm(path.join(rootDir, n), { recursive: true, force: true });
    }
  }
}

/** What the caps need of a kept change: its bytes (pre-images and record) and its pre-images' names. */
interface Kept {
  size: number;
  blobs: string[];
  /** The tool that made it (for the refusal that names it). */
  tool?: string;
}

function recordBytes(json: string): number {
  return Buffer.byteLength(json) + RECORD_LINE_BYTES;
}

function journalFullError(id: string, tool: string, age: number, minAge: number): ToolError {
  // Ages in ms: the words say them for people, with how long to wait.
  return new ToolError("journal_full", {
    reason: "min_age",
    change: id,
    command: tool,
    actual: age,
    limit: minAge,
  });
}

function blobsOf(body: ChangeBody): string[] {
  const out: string[] = [];
  for (const e of body.entries)
    if (e.op === "path" && e.pre && "blob" in e.pre && e.pre.blob) out.push(e.pre.blob);
  return out;
}

/**
 * What one tool call changed, as it happens. The core's mutators call it; the runner finishes it. Entries
 * are kept in the order things happened (an undo walks them backwards).
 */
export class ChangeRecorder {
  readonly id = newChangeId();
  private readonly entries: ChangeEntry[] = [];
  /** `<journal dir of the first root that needed one>/<id>`: the change's files are `<base>.<suffix>`. */
  private base?: string;
  private rootDir?: string;
  private blobs = 0;
  private size = 0;

  constructor(
    private readonly log: ChangeLog,
    readonly tool: string,
    /** The change this call undoes (set by undo.ts). */
    public undoOf?: string,
  ) {}

  /**
   * Where this change's files go (`<base>.<suffix>`): the journal of the first root it keeps something of.
   * Nothing is made for it: a pre-image is one name in the root's journal directory.
   */
  async place(root: Pick<Root, "real">): Promise<string> {
    if (!this.base) {
      this.rootDir = await this.log.rootDir(root);
      this.base = path.join(this.rootDir, this.id);
    }
    return this.base;
  }

  /** Where the next pre-image goes. */
  private async blobPath(root: Pick<Root, "real">): Promise<string> {
    return `${await this.place(root)}.${this.blobs++}`;
  }

  /** A pre-image's name in the record (`n` of `<base>.<n>`). */
  private blobName(p: string): string {
    return p.slice(this.base!.length + 1);
  }

  /**
   * A name for a pre-image the caller links itself (the transaction, beside its backup). Unused names are
   * left empty; a name is claimed only when its entry is recorded. Undefined when copies are forced.
   */
  async reserveBlob(root: Pick<Root, "real">): Promise<string | undefined> {
    return this.log.opts.copyPreImages ? undefined : this.blobPath(root);
  }

  /**
   * Refuses this change, before it changes anything more, when keeping it (what it holds now plus its
   * record) would drop a recent change from the journal of `root` (`ChangeLog.admit`).
   */
  async admit(root: Pick<Root, "real">): Promise<void> {
    const kept = this.size <= this.log.maxBytes ? this.size : 0;
    const record = RECORD_GUESS_BASE + RECORD_GUESS_PER_ENTRY * (this.entries.length + 1);
    await this.log.admit(this.rootDir ?? this.log.opts.dirOf(root.real), this.id, kept + record, this.undoOf);
  }

  /** Position to rewind to when the operation that follows fails (and changed nothing). */
  mark(): number {
    return this.entries.length;
  }

  async rewind(mark: number): Promise<void> {
    for (const e of this.entries.splice(mark)) {
      if (e.op !== "path" || !e.pre || !("blob" in e.pre) || !e.pre.blob || !this.base) continue;
      this.size -= e.pre.size;
      await fs.rm(`${this.base}.${e.pre.blob}`, { recursive: true, force: true }).catch(() => {});
    }
  }

  /**
   * The version of a file about to be replaced or deleted: `held` is a hidden link (or copy) of it beside the
   * target, made by the transaction, so the journal takes that inode by one more link. Returns the
   * pre-image kept (a multi-file commit's crash intent names it instead of keeping a second one).
   */
  async keepFile(
    target: ResolvedPath,
    held: string | undefined,
    pre: { sha256?: string; data?: Buffer; linkedAt?: string },
    postSha256: string | null,
  ): Promise<KeptFile | undefined> {
    const entry: PathEntry = {
      op: "path",
      root: target.root.real,
      rel: held ? onDiskRelOf(target.root, target.real) : relOf(target.root, target.real),
      pre: null,
      post: null,
    };
    let kept: KeptFile | undefined;
    if (held) {
      const dest = pre.linkedAt ?? (await this.blobPath(target.root));
      let linked = pre.linkedAt !== undefined;
      if (!linked && !this.log.opts.copyPreImages) {
        try {
          // hardLink: refused at once where the root's volume has no hard links (then a copy, below).
          await withPinnedParent(target, (d) => hardLink(target.root, d.at(path.basename(held)), dest));
          linked = true;
        } catch (err) {
          if (!isLinkRefused(err)) throw err;
        }
      }
      let sha256 = pre.sha256;
      if (!linked) {
        const data = pre.data ?? (await fs.readFile(held));
        sha256 ??= sha256Of(data);
        await writeOwnerOnly(dest, data);
      }
      const st = fsSync.lstatSync(dest);
      const size = Number(st.size);
      const mode = (linked ? st : fsSync.lstatSync(held)).mode & 0o7777;
      entry.pre = {
        type: "file",
        // Not re-read to hash it (a 10 MB overwrite would pay ~30 ms): a linked inode is checked by identity.
        ...(sha256 ? { sha256 } : { held: { ino: st.ino, size, mtimeMs: st.mtimeMs } }),
        mode,
        size,
        blob: this.blobName(dest),
      };
      kept = { blob: this.blobName(dest), sha256, mode, size, copied: !linked };
      this.size += size;
    }
    if (postSha256 !== null) {
      const mode = entry.pre?.type === "file" ? entry.pre.mode : 0;
      entry.post = { type: "file", sha256: postSha256, mode, size: 0 };
    }
    this.entries.push(entry);
    // Before the transaction's first rename: a refusal rewinds this entry and its pre-image.
    await this.admit(target.root);
    return kept;
  }

  /** Something now exists at `real` that did not (a directory made, a link or tree copied in). */
  created(root: Root, real: string, post: EntryState): void {
    this.entries.push({ op: "path", root: root.real, rel: relOf(root, real), pre: null, post });
  }

  /** A directory made by this change was removed again (its operation rolled back). */
  forgetCreated(root: Root, real: string): void {
    const rel = relOf(root, real);
    const i = this.entries.findLastIndex(
      (e) => e.op === "path" && e.root === root.real && e.rel === rel && e.pre === null,
    );
    if (i >= 0) this.entries.splice(i, 1);
  }

  /** Something that existed is gone and needs no blob (a symlink, an empty directory). */
  removed(root: Root, real: string, pre: EntryState): void {
    this.entries.push({ op: "path", root: root.real, rel: relOf(root, real), pre, post: null });
  }

  /**
   * Deletes a tree by renaming it into this change (one rename on the same device; across devices it is
   * copied here first and then removed by `removeInPlace`). Returns the tree's shape.
   */
  async removeTree(entry: ResolvedPath, removeInPlace: () => Promise<void>): Promise<void> {
    const rel = onDiskRelOf(entry.root, entry.real);
    const dest = await this.blobPath(entry.root);
    const mode = (await fs.lstat(entry.real)).mode & 0o7777;
    let moved = false;
    if (!this.log.opts.copyPreImages)
      try {
        await withPinnedParent(entry, (d, name) => fs.rename(d.at(name), dest));
        moved = true;
      } catch (err) {
        if (!isLinkRefused(err)) throw err;
      }
    if (!moved)
      await fs.cp(entry.real, dest, {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
        errorOnExist: true,
        force: false,
      });
    const { shape, size } = await shapeOf(dest);
    this.size += size;
    try {
      await this.admit(entry.root);
    } catch (err) {
      // No room: the tree goes back where it was (one rename), or its copy is dropped. Should something have
      // taken its place meanwhile, the delete stands, its tree kept like any other.
      const back = moved
        ? await withPinnedParent(entry, (d, name) => fs.rename(dest, d.at(name))).then(
            () => true,
            () => false,
          )
        : await fs.rm(dest, { recursive: true, force: true }).then(() => true);
      if (back) {
        this.size -= size;
        throw err;
      }
    }
    if (!moved) await removeInPlace();
    const pre: EntryState = { type: "tree", mode, shape, size, blob: this.blobName(dest) };
    this.entries.push({ op: "path", root: entry.root.real, rel, pre, post: null });
  }

  /** An entry renamed from `from` to `to` (by rename, copy + remove, or `git mv`). */
  async moved(from: ResolvedPath, to: ResolvedPath, kind: MoveEntry["kind"], method: MoveEntry["method"]) {
    const st = await fs.lstat(to.real);
    this.entries.push({
      op: "move",
      root: from.root.real,
      from: relOf(from.root, from.real),
      toRoot: to.root.real,
      to: relOf(to.root, to.real),
      kind,
      method,
      id: { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs },
    });
  }

  /**
   * Writes the record (nothing touched: no change) and applies the caps. A change larger than the cap keeps
   * its record, marked not undoable, and drops its pre-images at once.
   */
  async finish(): Promise<{ id: string; undoable: boolean; size: number; cap: number } | undefined> {
    try {
      return await this.record();
    } finally {
      this.log.finished(this.id);
    }
  }

  private async record(): Promise<{ id: string; undoable: boolean; size: number; cap: number } | undefined> {
    const undoable = this.size <= this.log.maxBytes;
    if (this.entries.length === 0 || !undoable) await this.dropBlobs();
    if (this.entries.length === 0) return undefined;
    const base = await this.place({ real: this.entries[0]!.root });
    if (undoable) ownerOnly(base, this.entries);
    const body: ChangeBody = {
      v: 1,
      id: this.id,
      time: new Date().toISOString(),
      tool: this.tool,
      size: undoable ? this.size : 0,
      undoable,
      ...(this.undoOf ? { undoOf: this.undoOf } : {}),
      entries: this.entries,
    };
    // Appended in one write (change-records.ts): the change exists from here on.
    const json = JSON.stringify(body);
    this.log.append(this.rootDir!, this.id, json);
    const blobs = undoable ? blobsOf(body) : [];
    const size = body.size + recordBytes(json);
    await this.log.account(this.rootDir!, this.id, { size, blobs, tool: this.tool });
    return { id: this.id, undoable, size: this.size, cap: this.log.maxBytes };
  }

  /** Removes every pre-image this change kept (or reserved a name for). */
  private async dropBlobs(): Promise<void> {
    for (let n = 0; n < this.blobs; n++)
      await fs.rm(`${this.base}.${n}`, { recursive: true, force: true }).catch(() => {});
  }
}

/**
 * A linked pre-image is the old inode with its own mode; once the journal holds its only link it is made
 * owner-only (an inode with other links — the user's own hard links — keeps its mode: the 0700 directory
 * guards it). The mode to restore is in the record. Synchronous: two syscalls of microseconds per file.
 */
function ownerOnly(base: string, entries: readonly ChangeEntry[]): void {
  if (!POSIX) return;
  for (const e of entries) {
    if (e.op !== "path" || e.pre?.type !== "file" || !e.pre.blob || (e.pre.mode & 0o777) === 0o600) continue;
    try {
      const p = `${base}.${e.pre.blob}`;
      const st = fsSync.lstatSync(p);
      if (st.isFile() && st.nlink === 1 && (st.mode & 0o777) !== 0o600) fsSync.chmodSync(p, 0o600);
    } catch {
      // Best effort: the 0700 directory guards it.
    }
  }
}

/**
 * A tree's shape: its entries' relative names, kinds, modes, sizes and link targets, hashed; and its bytes.
 * What an undo checks a kept tree against (file bytes are not hashed: that would read the whole tree).
 */
export async function shapeOf(top: string): Promise<{ shape: string; size: number }> {
  const lines: string[] = [];
  let size = 0;
  // Synchronous: 10,000 files take ~20 ms this way against ~500 ms of awaited lstat calls (measured), and
  // the tree is one the journal owns or one a call is about to hand back.
  const visit = (dir: string, rel: string): void => {
    for (const d of fsSync.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        lines.push(`d ${r}`);
        visit(p, r);
      } else if (d.isSymbolicLink()) lines.push(`l ${r} ${fsSync.readlinkSync(p)}`);
      else {
        const st = fsSync.lstatSync(p);
        size += st.size;
        lines.push(`f ${r} ${st.size}`);
      }
    }
  };
  visit(top, "");
  lines.sort();
  return { shape: sha256Of(lines.join("\n")), size };
}

function summarize(body: ChangeBody, undoneBy: string | undefined): ChangeSummary {
  const paths: { root: string; rel: string }[] = [];
  for (const e of body.entries) {
    if (e.op === "move") paths.push({ root: e.root, rel: e.from }, { root: e.toRoot, rel: e.to });
    else if (!paths.some((p) => p.root === e.root && p.rel === e.rel))
      paths.push({ root: e.root, rel: e.rel });
  }
  const reason = !body.undoable
    ? "larger than the journal's size cap: its previous versions were not kept"
    : undoneBy
      ? `already undone by ${undoneBy}`
      : undefined;
  return {
    id: body.id,
    time: body.time,
    tool: body.tool,
    paths,
    size: body.size,
    undoable: reason === undefined,
    ...(reason ? { reason } : {}),
    ...(body.undoOf ? { undoOf: body.undoOf } : {}),
    ...(undoneBy ? { undoneBy } : {}),
  };
}

async function readUndone(base: string): Promise<string | undefined> {
  return (await fs.readFile(`${base}.undone`, "utf8").catch(() => "")).trim() || undefined;
}

/** A record's body, or undefined when its hash (checked as it was read) or its shape does not hold. */
function decode(json: string | undefined, id: string): ChangeBody | undefined {
  if (json === undefined || json === TAMPERED) return undefined;
  try {
    const body = JSON.parse(json) as ChangeBody;
    if (body.v !== 1 || body.id !== id || !Array.isArray(body.entries)) return undefined;
    return body;
  } catch {
    return undefined;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (err) {
    if (isErrno(err, "ENOENT", "ENOTDIR")) return [];
    throw err;
  }
}

/** Removes a dropped change's files: what marks it undone, then its pre-images. */
async function removeFiles(base: string, blobs: readonly string[]): Promise<void> {
  await fs.rm(`${base}.undone`, { force: true });
  for (const b of blobs) await fs.rm(`${base}.${b}`, { recursive: true, force: true });
}

async function writeOwnerOnly(p: string, data: Uint8Array): Promise<void> {
  const fh = await fs.open(p, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await fh.writeFile(data);
  } finally {
    await fh.close();
  }
}
