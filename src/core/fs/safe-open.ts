import { randomBytes } from "node:crypto";
import fsSync, { type BigIntStats, constants, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { isErrno, ToolError } from "../errors.js";
import { descriptorPathsOf, hardLinksOf, namesOf, type ResolvedPath, type Root } from "../root.js";

/** Absent on Windows, where no FIFO can be opened by path this way. */
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** What a verified open needs of a resolved path: where it is, its root, and the client's name for messages. */
export type OpenTarget = Pick<ResolvedPath, "root" | "requested" | "real">;

/** What a refused `O_NOFOLLOW | O_NONBLOCK` open means for the client's path. */
function openError(err: unknown, requested: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ELOOP") return changedError(requested);
  // A FIFO opened for writing with no reader.
  if (code === "ENXIO") return notRegularError(requested);
  return err;
}

/** The open flags of every verified open: no symlink followed in the last component, no FIFO blocking. */
function verifiedFlags(flags: number): number {
  return flags | constants.O_NOFOLLOW | O_NONBLOCK;
}

/**
 * The one check of an opened descriptor against the path gate's verdict: the descriptor must be the entry
 * at `target.real` — the very path the gate judged — not merely some file inside the root. Where
 * `/proc/self/fd/N` works (Linux; probed per root) the kernel's name for the descriptor must be that path;
 * elsewhere that path must still be its own realpath after the open (Windows has no O_NOFOLLOW, and under
 * Wine a Unix symlink is no link to lstat). Everywhere the descriptor's identity must match a fresh `lstat`
 * of that path. So a folder on the way swapped for a symlink after `resolve` — to outside the root, or to
 * a place inside it that a rule keeps out — is refused, as is a swapped last component. Synchronous: three
 * metadata system calls of a few microseconds, cheaper than one thread-pool round trip. Returns the
 * descriptor's status.
 */
export function checkDescriptor(fd: number, target: OpenTarget): BigIntStats {
  const { root, requested, real } = target;
  const held = fsSync.fstatSync(fd, { bigint: true });
  let actual = "";
  try {
    actual = descriptorPathsOf(root)
      ? fsSync.readlinkSync(`/proc/self/fd/${fd}`)
      : fsSync.realpathSync.native(real);
  } catch {
    // Gone: refused below.
  }
  if (!isOwnRealpath(real, actual, root)) throw changedError(requested);
  if (!sameFile(held, fsSync.lstatSync(real, { bigint: true, throwIfNoEntry: false })))
    throw changedError(requested);
  return held;
}

/** `checkDescriptor`, then only a regular file or a directory is kept. */
function checkOpened(fd: number, target: OpenTarget): BigIntStats {
  const st = checkDescriptor(fd, target);
  if (!st.isFile() && !st.isDirectory()) throw notRegularError(target.requested);
  return st;
}

/**
 * A verified descriptor for reading. Its metadata calls (status, close) are synchronous, as the open and
 * `checkDescriptor` before them are: a few microseconds each, where a thread-pool round trip costs ~70 µs
 * of CPU on a busy machine (three of them made a 1.5 KB read cost twice the official server's). Its data
 * reads always go to the thread pool, so no read holds the event loop. Close it exactly once.
 */
export class VerifiedHandle implements ReadAt {
  #open = true;

  constructor(readonly fd: number) {}

  /** Reads at `position` (`null`: at the descriptor's current offset). */
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number | null,
  ): Promise<{ bytesRead: number; buffer: Buffer }> {
    return new Promise((resolve, reject) =>
      fsSync.read(this.fd, buffer, offset, length, position, (err, bytesRead) =>
        err ? reject(err) : resolve({ bytesRead, buffer }),
      ),
    );
  }

  /** The rest of the file from the descriptor's offset (the whole file after the open). */
  readFile(): Promise<Buffer>;
  readFile(encoding: BufferEncoding): Promise<string>;
  readFile(encoding?: BufferEncoding): Promise<Buffer | string> {
    return new Promise((resolve, reject) =>
      fsSync.readFile(this.fd, { encoding }, (err, data) => (err ? reject(err) : resolve(data))),
    );
  }

  stat(opts: { bigint: true }): Promise<BigIntStats>;
  stat(opts?: { bigint?: false }): Promise<Stats>;
  async stat(opts?: { bigint?: boolean }): Promise<Stats | BigIntStats> {
    return fsSync.fstatSync(this.fd, { bigint: opts?.bigint === true });
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    fsSync.closeSync(this.fd);
  }
}

/** A verified descriptor with the status `checkDescriptor` took. */
export interface VerifiedFile {
  fh: VerifiedHandle;
  st: BigIntStats;
}

/**
 * Opens a resolved path for reading through `checkDescriptor` (`openVerifiedSync`, the one verified open),
 * always `O_NONBLOCK` (opening a FIFO or a device blocking would hold the thread forever), and refuses
 * anything but a regular file or a directory.
 */
export async function openVerifiedFile(
  target: OpenTarget,
  flags: number = constants.O_RDONLY,
): Promise<VerifiedFile> {
  const { fd, st } = openVerifiedSync(target, flags);
  return { fh: new VerifiedHandle(fd), st };
}

/** `openVerifiedFile`'s handle alone. */
export async function openVerified(
  target: OpenTarget,
  flags: number = constants.O_RDONLY,
): Promise<VerifiedHandle> {
  return (await openVerifiedFile(target, flags)).fh;
}

/** `openVerified` for reading, or `undefined` when nothing is at the path. */
export async function openVerifiedIfExists(target: ResolvedPath): Promise<VerifiedHandle | undefined> {
  try {
    return await openVerified(target);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return undefined;
    throw err;
  }
}

/** What the readers need of an open file: positional reads and its status (a VerifiedHandle). */
export interface ReadAt {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(opts: { bigint: true }): Promise<BigIntStats>;
}

/** The first `size` bytes of an open file (fewer if it is shorter now): one read where the pool allows. */
export async function readBytesAt(fh: ReadAt, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const { bytesRead } = await fh.read(bytes, got, size - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return bytes.subarray(0, got);
}

/**
 * THE verified open: `O_NOFOLLOW | O_NONBLOCK`, then `checkDescriptor`; only a regular file or a directory
 * is kept. Synchronous, as a metadata call: `openVerifiedFile` wraps its descriptor for async reads, and the
 * in-process grep, which opens thousands of files and reads each between event-loop turns, uses it
 * directly. Returns the descriptor (the caller closes it) and its status.
 */
export function openVerifiedSync(
  target: OpenTarget,
  flags: number = constants.O_RDONLY,
): { fd: number; st: BigIntStats } {
  let fd: number;
  try {
    fd = fsSync.openSync(target.real, verifiedFlags(flags));
  } catch (err) {
    throw openError(err, target.requested);
  }
  try {
    return { fd, st: checkOpened(fd, target) };
  } catch (err) {
    fsSync.closeSync(fd);
    throw err;
  }
}

function sameFile<S extends Stats | BigIntStats>(held: S, now: S | undefined): boolean {
  return now !== undefined && now.ino === held.ino && now.dev === held.dev;
}

export function notRegularError(requested: string): ToolError {
  return new ToolError("not_file", { reason: "not_regular", path: requested });
}

/** `real` (the realpath of `opened`) names the same place as `opened`, in any Unicode form, inside the root. */
function isOwnRealpath(opened: string, real: string, root: Root): boolean {
  const names = namesOf(root);
  // path.resolve: a walk may join with `/`, which Windows reads as `\`.
  const same = names.equal(real.normalize("NFC"), path.resolve(opened).normalize("NFC"));
  return same && names.isAtOrBelow(real, root.real);
}

export function changedError(requested: string): ToolError {
  return new ToolError("denied", { reason: "changed_while_opening", path: requested });
}

/**
 * A directory held open by descriptor. `at(name)` names an entry *of that very directory* — on Linux through
 * `/proc/self/fd/N/name`, which the kernel resolves via the descriptor, so renaming the directory's path or
 * swapping one of its ancestors for a symlink afterwards cannot redirect a create, unlink, rename or mkdir
 * made through it. (Elsewhere — or with the portable checks forced — `at` falls back to the plain path and only
 * the checks at open time remain.)
 */
export interface PinnedDir {
  /** The canonical path the directory had when it was pinned. */
  readonly real: string;
  at(name: string): string;
  /** Pins a subdirectory of this one (a symlink or non-directory there is refused). */
  child(name: string): Promise<PinnedDir>;
  /** fsync of the directory (best effort). */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the directory `real` (canonical, inside `root`) without following a symlink in its last
 * component and proves through `checkDescriptor` that the descriptor really is that directory. A directory
 * swapped for a symlink (at any level) is refused as a changed path.
 */
export async function pinDirectory(
  real: string,
  root: Root,
  requested: string,
  openPath: string = real,
): Promise<PinnedDir> {
  let fh: FileHandle;
  try {
    fh = await fs.open(openPath, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw changedError(requested);
    if (code === "ENOTDIR")
      throw new ToolError("not_directory", { reason: "parent_is_file", path: requested });
    throw err;
  }
  const procFd = descriptorPathsOf(root);
  try {
    checkDescriptor(fh.fd, { root, requested, real });
  } catch (err) {
    await fh.close().catch(() => {});
    throw err;
  }
  const at = (name: string) => (procFd ? `/proc/self/fd/${fh.fd}/${name}` : path.join(real, name));
  return {
    real,
    at,
    child: (name) => pinDirectory(path.join(real, name), root, requested, at(name)),
    sync: () => fh.sync().catch(() => {}),
    close: () => fh.close().catch(() => {}),
  };
}

/** Linux's PATH_MAX, terminating NUL included. */
const PATH_MAX = 4096;

/**
 * Refuses a location whose path is too long to be named by path. Descriptor-relative steps could otherwise
 * build trees deeper than PATH_MAX, which no other tool (nor a later call by path) could address.
 */
export function checkPathLength(real: string, requested: string): void {
  if (Buffer.byteLength(real) >= PATH_MAX)
    throw new ToolError("invalid", { reason: "name_too_long", path: requested });
}

/** Pins `real`'s parent directory and returns it with `real`'s last component. */
export async function pinParent(
  real: string,
  root: Root,
  requested: string,
): Promise<{ dir: PinnedDir; name: string }> {
  checkPathLength(real, requested);
  return { dir: await pinDirectory(path.dirname(real), root, requested), name: path.basename(real) };
}

/** Runs `fn` with `target`'s parent pinned by descriptor, so a parent swapped for a symlink meanwhile cannot
 * redirect the link/rename/unlink/mkdir made through it outside the root. */
export async function withPinnedParent<T>(
  target: ResolvedPath,
  fn: (dir: PinnedDir, name: string) => Promise<T>,
): Promise<T> {
  const { dir, name } = await pinParent(target.real, target.root, target.requested);
  try {
    return await fn(dir, name);
  } finally {
    await dir.close();
  }
}

/** What link(2) answers where a filesystem has no hard links (exFAT, FAT, some network shares). */
const NO_HARD_LINKS = ["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK"] as const;

/** Thrown by `hardLink` without trying where `root`'s volume is known to have no hard links. */
class NoHardLinks extends Error {
  constructor(to: string) {
    super(`hard links are not used here: ${to}`);
    this.name = "NoHardLinks";
  }
}

/** Whether `hardLink` failed because the volume has no hard links (known, or as link(2) answered). */
export function isNoHardLinks(err: unknown): boolean {
  return err instanceof NoHardLinks || isErrno(err, ...NO_HARD_LINKS);
}

/**
 * Whether a link or rename into the journal failed for a reason a copy gets around: no hard links on the
 * volume (known or answered), another device, or a refusal to link (EACCES: e.g. protected_hardlinks).
 */
export function isLinkRefused(err: unknown): boolean {
  return isNoHardLinks(err) || isErrno(err, "EXDEV", "EACCES");
}

/** link(2), or at once a `NoHardLinks` when `root`'s volume has none. */
export async function hardLink(root: Root, from: string, to: string): Promise<void> {
  if (!hardLinksOf(root)) throw new NoHardLinks(to);
  await fs.link(from, to);
}

/** `hardLink`, synchronously: a link is microseconds, where an awaited one also waits for the thread pool. */
export function hardLinkSync(root: Root, from: string, to: string): void {
  if (!hardLinksOf(root)) throw new NoHardLinks(to);
  fsSync.linkSync(from, to);
}

/**
 * Gives the file `from` the new name `to`, never replacing an entry there (EEXIST instead): a hard link then
 * unlink where links work; elsewhere the name is claimed by an exclusive create and `from` renamed over that
 * claim, our own empty file (so for an instant the new name shows an empty file).
 */
export async function placeNoReplace(root: Root, from: string, to: string): Promise<void> {
  try {
    await hardLink(root, from, to);
    await fs.unlink(from).catch(() => {});
    return;
  } catch (err) {
    if (!isNoHardLinks(err)) throw err;
  }
  const claim = await fs.open(
    to,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  await claim.close();
  try {
    await fs.rename(from, to);
  } catch (err) {
    await fs.unlink(to).catch(() => {});
    throw err;
  }
}

/** Temp names share one recognisable shape so walkers and listings can hide them. */
export const TEMP_NAME = /^\.mcpfs-[0-9a-f]{16}\.tmp$/;

/** A temp name as `root`'s volume compares names (another case of one is the same file where case folds). */
export function isTempName(name: string, root: Root): boolean {
  return TEMP_NAME.test(namesOf(root).foldsCase ? name.toLowerCase() : name);
}

export function tempPathBeside(real: string): string {
  return path.join(path.dirname(real), `.mcpfs-${randomBytes(8).toString("hex")}.tmp`);
}

/**
 * Reads a rules file of `root` (`.gitignore`, `.git/info/exclude`) at the real path `file` through the one
 * verified open: a symlink (refused by `O_NOFOLLOW`, as git 2.32+ refuses a symlinked rules file), a path
 * whose folders changed since, a FIFO or anything but a regular file throws. Read synchronously: the rules
 * are compiled on the main thread right after, so a thread-pool read saved no stall and cost a round trip
 * per file on every gated call. Undefined, unread, when the file holds more than `maxBytes`.
 */
export function readRegularText(root: Root, file: string, maxBytes: number): string | undefined {
  const { fd, st } = openVerifiedSync({ root, requested: file, real: file });
  try {
    if (!st.isFile()) throw notRegularError(file);
    return st.size > BigInt(maxBytes) ? undefined : fsSync.readFileSync(fd, "utf8");
  } finally {
    fsSync.closeSync(fd);
  }
}

/** `readRegularText` without the verified open, for walks that read rules inline. */
export function readRegularTextSync(file: string, maxBytes: number): string | undefined {
  const fd = fsSync.openSync(file, constants.O_RDONLY | O_NONBLOCK);
  try {
    const st = fsSync.fstatSync(fd);
    if (!st.isFile()) throw new Error(`not a regular file: ${file}`);
    return st.size > maxBytes ? undefined : fsSync.readFileSync(fd, "utf8");
  } finally {
    fsSync.closeSync(fd);
  }
}

/** Makes a directory's entries durable (after a rename or create); best effort: not every filesystem, nor Windows, fsyncs a directory. */
export async function syncDir(dir: string): Promise<void> {
  try {
    const dh = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    // Best effort (see above).
  }
}
