import { realpathSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { deniedByRuleError } from "./deny.js";
import { isErrno, ToolError } from "./errors.js";
import { gateCarried, gateChange, gateIgnored, gitDirWriteError, ignoredError } from "./gate.js";
import type { ChangeRecorder } from "./journal/change-log.js";
import {
  EXACT_NAMES,
  FOLDED_NAMES,
  hasGitDirSegment,
  hasParentSegment,
  type NamePolicy,
  screenRequestedPath,
} from "./paths.js";
import type { UrlOnlyReference } from "./references.js";
import {
  type ResolvedPath as BareResolvedPath,
  namesOf,
  type PathRules,
  type ResolveOptions,
  type Root,
} from "./root.js";

// What a root is lives in root.ts (below the gate, the ignore rules and the journal); said here too for the
// many modules that hold a Workspace and its roots together.
export {
  type Intent,
  makeRoot,
  namesOf,
  type PathRules,
  type ResolveOptions,
  type Root,
  type VolumeOverrides,
  withOverrides,
} from "./root.js";

/**
 * A resolved path (root.ts) as a workspace hands it out: with the undo journal's recorder of the tool call it
 * was resolved for (`Workspace.forCall`), so the core's mutators note in it what they do to the path. Absent
 * outside a journaled call. Added here, above the journal, so root.ts stays below it (no import cycle).
 */
export interface ResolvedPath extends BareResolvedPath {
  readonly change?: ChangeRecorder;
}

const MAX_LINK_HOPS = 40;

export function deniedError(requested: string): ToolError {
  return new ToolError("outside_roots", { path: requested });
}

export function readOnlyError(requested: string): ToolError {
  return new ToolError("read_only", { path: requested });
}

/**
 * The allowed places of one connection and the one function that decides what a client path may touch.
 * Every path from a client goes through `resolve` exactly once.
 */
export class Workspace {
  private rootList: Root[];

  constructor(
    roots: readonly Root[],
    /** How paths resolve and what this connection keeps out of reach beyond the roots. */
    readonly rules: PathRules,
    /** Reference projects without a local directory: never roots, so no path can resolve into them. */
    readonly urlOnlyReferences: readonly UrlOnlyReference[] = [],
  ) {
    this.rootList = [...roots];
  }

  /** The recorder of the call this view serves (see `forCall`); absent on a connection's own workspace. */
  readonly change?: ChangeRecorder;

  /**
   * This workspace as one journaled tool call sees it: every path it resolves carries `change`, so whatever
   * the core does to a path lands in the call's change (no tool can forget to pass it on). The view shares
   * the roots and policy of this workspace.
   */
  forCall(change: ChangeRecorder | undefined): Workspace {
    if (change === undefined) return this;
    return Object.create(this, { change: { value: change, enumerable: true } }) as Workspace;
  }

  get roots(): readonly Root[] {
    return this.rootList;
  }

  setRoots(roots: readonly Root[]): void {
    this.rootList = [...roots];
  }

  /** The deepest root whose real path contains `real`, among `candidates`. */
  rootOf(real: string, candidates: readonly Root[] = this.rootList): Root | undefined {
    let best: Root | undefined;
    for (const r of candidates) {
      if (namesOf(r).isAtOrBelow(real, r.real) && (!best || r.real.length > best.real.length)) best = r;
    }
    return best;
  }

  /** Confinement check for a real path found during a walk or a listing (no I/O). */
  contains(real: string, base?: Root): boolean {
    return this.rootOf(real, this.candidatesFor(base)) !== undefined;
  }

  /** Whether a real path lies in a writable root: its deepest root is not read-only (no I/O; as `checkWrite`). */
  writable(real: string): boolean {
    return this.rootOf(real)?.mode === "rw";
  }

  /** A real path found during a walk or a listing lies at or below what its root's `--deny` rules deny. */
  denies(real: string): boolean {
    const root = this.rootOf(real);
    if (!root?.deny) return false;
    const relative = path.relative(root.real, real).split(path.sep).join("/");
    return root.deny.denies(relative, namesOf(root).foldsCase);
  }

  async resolve(requested: unknown, opts: ResolveOptions): Promise<ResolvedPath> {
    const screened = screenRequestedPath(requested);
    const shown = requested as string;
    const candidates = this.candidatesFor(opts.base);
    if (candidates.length === 0) throw new ToolError("no_roots", {});

    const abs = this.absolutize(screened, shown, candidates, opts.base);
    // Lexical confinement first: a path that is outside on its face never reaches the filesystem.
    if (!candidates.some((r) => lexicallyIn(abs, r))) throw deniedError(shown);

    const { real, exists } = await realLocation(
      abs,
      shown,
      (p) => this.rootOf(p, candidates) !== undefined,
      (p) => this.namesAt(p, candidates),
    );
    const resolved = await this.located(shown, real, exists, candidates, opts);
    if (opts.intent === "write") await gateChange(this.rules, resolved, shown, false);
    return resolved;
  }

  /**
   * The resolved path at `real`: its deepest root (confined once more), the write rules for write intent,
   * and the recorder of the call this view serves (which refuses the call, before it changes anything, when
   * the undo journal has no room for it without dropping a recent change).
   */
  private async located(
    shown: string,
    real: string,
    exists: boolean,
    candidates: readonly Root[],
    opts: ResolveOptions,
    spelled?: string,
  ): Promise<ResolvedPath> {
    const root = this.rootOf(real, candidates);
    if (!root) throw deniedError(shown);
    const relative = path.relative(root.real, real).split(path.sep).join("/");
    if (root.deny?.denies(relative, namesOf(root).foldsCase)) throw deniedByRuleError(shown);
    if (opts.intent === "write") {
      this.checkWrite(real, root, relative, shown, candidates);
      await this.change?.admit(root);
    }
    return {
      requested: shown,
      real,
      root,
      exists,
      relative,
      ...(spelled ? { spelled } : {}),
      ...(this.change ? { change: this.change } : {}),
    };
  }

  /**
   * Resolves a path that names a directory entry itself (delete, move, rename): the parent is resolved as
   * usual and the last component is kept as it is, so a symlink stays the link and is never followed. A link
   * whose target lies outside the roots is refused all the same (fail closed: the seed forbids leaving the
   * project through a symlink, whatever the operation).
   */
  async resolveEntry(requested: unknown, opts: ResolveOptions): Promise<ResolvedPath> {
    const screened = screenRequestedPath(requested);
    const shown = requested as string;
    const candidates = this.candidatesFor(opts.base);
    if (candidates.length === 0) throw new ToolError("no_roots", {});
    const abs = this.absolutize(screened, shown, candidates, opts.base);
    const name = path.basename(abs);
    const isRoot = candidates.some((r) => namesOf(r).equal(abs, r.path) || namesOf(r).equal(abs, r.real));
    if (isRoot || name === "" || path.dirname(abs) === abs) return this.resolve(requested, opts);
    if (!candidates.some((r) => lexicallyIn(abs, r))) throw deniedError(shown);
    const inside = (p: string) => this.rootOf(p, candidates) !== undefined;
    const namesAt = (p: string) => this.namesAt(p, candidates);
    const parent = await realLocation(path.dirname(abs), shown, inside, namesAt);
    if (!inside(parent.real)) throw deniedError(shown);
    // Another Unicode form, or on a case-insensitive volume another case, of an existing entry designates
    // that entry (as in `resolve`): the decisions below see its name on disk.
    const listed = await listNames(parent.real);
    let onDisk = listed && matchName(listed, name, namesAt(parent.real));
    let real = path.join(parent.real, onDisk ?? name);
    let exists = false;
    try {
      let st = await fs.lstat(real);
      exists = true;
      if (onDisk === undefined) {
        // There, yet listed under no spelling of it: an alias (a Windows 8.3 short name, `GIT~1` for `.git`).
        // Every rule below, the undo journal and the I/O see the name the volume stores.
        onDisk = await storedName(parent.real, name, st, listed);
        if (onDisk === undefined) throw aliasError(shown);
        real = path.join(parent.real, onDisk);
        st = await fs.lstat(real);
      }
      if (st.isSymbolicLink()) {
        // The link's target must stay inside, whether it exists or dangles: every hop of the chain is checked.
        const target = await realLocation(real, shown, inside, namesAt);
        if (!inside(target.real)) throw deniedError(shown);
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      if (!isErrno(err, "ENOENT")) throw fsErrorFor(err, shown);
    }
    const spelled = onDisk !== undefined && onDisk !== name ? name : undefined;
    const resolved = await this.located(shown, real, exists, candidates, opts, spelled);
    // An entry resolved for writing is moved, renamed or deleted whole, with what it holds.
    if (opts.intent === "write") await gateChange(this.rules, resolved, shown, true);
    return resolved;
  }

  /**
   * The name policy that applies inside the directory `real`: its root's; above a folding root (one of its
   * ancestors), folded too, so the root's own name matches in any case; exact elsewhere.
   */
  private namesAt(real: string, candidates: readonly Root[]): NamePolicy {
    const root = this.rootOf(real, candidates);
    if (root) return namesOf(root);
    const above = candidates.find((r) => namesOf(r).foldsCase && namesOf(r).isAtOrBelow(r.real, real));
    return above ? namesOf(above) : EXACT_NAMES;
  }

  /**
   * The surface's read gate for a resolved path (under the workspace policy: `.git/` and ignored files are
   * refused). Tools, resources, completions and subscriptions all call this one.
   */
  gate(target: ResolvedPath, shown: string, isDir: boolean | "either" = false): Promise<void> {
    return gateIgnored(this.rules, target, shown, isDir);
  }

  /** A copy's source: refused when it is a folder holding an entry out of reach (see `gateCarried`). */
  gateCopied(source: ResolvedPath): Promise<void> {
    return gateCarried(this.rules, source, source.requested);
  }

  /**
   * The one rule for every mutation, judged by effect: nothing at or below a read-only root changes, whether
   * it is named itself or taken along by a delete, move or overwrite of an ancestor; and nothing is written
   * into a `.git` directory (a planted config or hook would run on the user's next git command).
   */
  private checkWrite(
    real: string,
    root: Root,
    relative: string,
    shown: string,
    candidates: readonly Root[],
  ): void {
    // `isAtOrBelow(r.real, real)`: the read-only root lies at or below what changes (an ancestor counts).
    if (root.mode === "ro" || candidates.some((r) => r.mode === "ro" && namesOf(r).isAtOrBelow(r.real, real)))
      throw readOnlyError(shown);
    if (!this.rules.gitDirWrites && hasGitDirSegment(relative, namesOf(root).foldsCase))
      throw this.rules.hideIgnored ? ignoredError(shown) : gitDirWriteError(shown);
  }

  private candidatesFor(base?: Root): readonly Root[] {
    if (!this.rules.anchored || !base) return this.rootList;
    // Nested read-only roots inside the base still apply (deepest root decides the mode).
    return this.rootList
      .filter((r) => r === base || namesOf(base).isAtOrBelow(r.real, base.real))
      .concat(this.rootList.includes(base) ? [] : [base]);
  }

  private absolutize(p: string, shown: string, candidates: readonly Root[], base?: Root): string {
    if (this.rules.anchored) {
      if (hasParentSegment(shown) || hasParentSegment(p))
        throw new ToolError("outside_roots", { reason: "parent_segment", path: shown });
      const anchor = base ?? candidates[0]!;
      return path.isAbsolute(p) ? path.resolve(p) : path.resolve(anchor.path, p);
    }
    if (path.isAbsolute(p)) return path.resolve(p);
    // Relative paths are tried against each root in order; the first one that lands inside a root wins.
    for (const r of candidates) {
      const cand = path.resolve(r.path, p);
      if (candidates.some((c) => lexicallyIn(cand, c))) return cand;
    }
    return path.resolve(candidates[0]!.path, p);
  }
}

/** The path lies at or below the root as the user named it or as it really is (no I/O). */
function lexicallyIn(abs: string, r: Root): boolean {
  const names = namesOf(r);
  return names.isAtOrBelow(abs, r.path) || names.isAtOrBelow(abs, r.real);
}

/**
 * Errors of `realpath`/`lstat` that mean "something on the way is missing or unusable". They send the walk
 * up to the deepest existing ancestor, whose confinement is checked before any error may describe what lies
 * below it: a "not a directory" or "permission denied" about a place outside would be an oracle.
 */
const WALK_UP = ["ENOENT", "ENOTDIR", "ELOOP", "EACCES", "EPERM", "ENAMETOOLONG"];

/**
 * The real location a path designates: its realpath when it exists; otherwise the realpath of its deepest
 * existing ancestor plus the missing tail, following a dangling symlink to where a write would land.
 * Missing components are matched NFC-equivalently (macOS stores NFD names). Every symlink hop is checked
 * with `inside` so a chain cannot wander out and back.
 */
async function realLocation(
  abs: string,
  shown: string,
  inside: (real: string) => boolean,
  namesAt: (real: string) => NamePolicy,
): Promise<{ real: string; exists: boolean }> {
  let target = abs;
  // A link met twice is a cycle: stop at once instead of paying for every hop up to the limit.
  const seen = new Set<string>();
  const follow = async (link: string, rest: string[]) => {
    if (seen.has(link)) throw new ToolError("invalid", { reason: "symlink_loop", path: shown });
    seen.add(link);
    return linkHop(link, rest, shown, inside);
  };
  hops: for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    try {
      // Synchronous on purpose: the same realpath(3), without a thread-pool round trip on every call.
      return { real: realpathSync.native(target), exists: true };
    } catch (err) {
      if (!isErrno(err, ...WALK_UP)) throw fsErrorFor(err, shown);
    }
    // Find the deepest existing ancestor (by lstat, so a dangling link is found as itself).
    let existing = target;
    const tail: string[] = [];
    let st: Awaited<ReturnType<typeof fs.lstat>> | undefined;
    for (;;) {
      try {
        st = await fs.lstat(existing);
        break;
      } catch (err) {
        if (!isErrno(err, ...WALK_UP)) throw fsErrorFor(err, shown);
        const parent = path.dirname(existing);
        if (parent === existing) throw deniedError(shown);
        tail.unshift(path.basename(existing));
        existing = parent;
      }
    }
    if (st.isSymbolicLink()) {
      target = await follow(existing, tail);
      continue;
    }
    let real = await realOrThrow(existing, shown);
    // Outside, only an ancestor of a root may go on (the root spelled in another case on a folding volume
    // does not exist by that spelling): the walk then matches its name, and the result is confined again.
    if (!inside(real) && !(st.isDirectory() && namesAt(real).foldsCase)) throw deniedError(shown);
    if (!st.isDirectory()) {
      if (tail.length > 0) throw new ToolError("not_directory", { reason: "parent_is_file", path: shown });
      return { real, exists: true };
    }
    // Walk the missing tail, accepting a single NFC-equivalent entry for each component. `real` stays
    // canonical: a matched entry that is a symlink is followed as one more checked hop.
    for (let i = 0; i < tail.length; i++) {
      const match = await entryMatch(real, tail[i]!, namesAt(real));
      if (match === undefined) return { real: path.join(real, ...tail.slice(i)), exists: false };
      const entry = path.join(real, match);
      const est = await fs.lstat(entry).catch(() => undefined);
      if (!est) return { real: path.join(real, ...tail.slice(i)), exists: false };
      if (est.isSymbolicLink()) {
        target = await follow(entry, tail.slice(i + 1));
        continue hops;
      }
      real = entry;
    }
    return { real, exists: true };
  }
  throw new ToolError("invalid", { reason: "symlink_loop", path: shown });
}

/** Where a symlink leads (plus the rest of the path), refused when its directory or its target is outside. */
async function linkHop(
  link: string,
  rest: string[],
  shown: string,
  inside: (real: string) => boolean,
): Promise<string> {
  const linkDir = await realOrThrow(path.dirname(link), shown);
  if (!inside(linkDir)) throw deniedError(shown);
  let text: string;
  try {
    text = await fs.readlink(link);
  } catch (err) {
    throw fsErrorFor(err, shown);
  }
  const linkTarget = path.resolve(linkDir, text);
  // Fail closed: a target outside on its face is refused; one inside is re-resolved on the next hop.
  if (!inside(linkTarget)) throw deniedError(shown);
  return path.join(linkTarget, ...rest);
}

async function realOrThrow(p: string, shown: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch (err) {
    throw fsErrorFor(err, shown);
  }
}

/**
 * The name on disk of the entry of `dir` that `name` designates: the same name, or the one equal to it in NFC
 * under the directory's name policy (so another case on a case-insensitive volume). Two candidates and no
 * exact one: ambiguous.
 */
async function entryMatch(dir: string, name: string, names: NamePolicy): Promise<string | undefined> {
  const listed = await listNames(dir);
  return listed && matchName(listed, name, names);
}

/** The names in `dir`; undefined when it cannot be listed. */
async function listNames(dir: string): Promise<string[] | undefined> {
  return fs.readdir(dir).catch(() => undefined);
}

function matchName(listed: readonly string[], name: string, names: NamePolicy): string | undefined {
  const want = names.fold(name.normalize("NFC"));
  const found = listed.filter((e) => names.fold(e.normalize("NFC")) === want);
  if (found.includes(name)) return name;
  if (found.length > 1) throw new ToolError("invalid", { reason: "ambiguous_component", actual: name });
  return found[0];
}

type Identity = { dev: number; ino: number; isSymbolicLink(): boolean };

const sameIdentity = (a: Identity, b: Identity) =>
  a.dev === b.dev && a.ino === b.ino && a.isSymbolicLink() === b.isSymbolicLink();

/**
 * The stored name of `name`, an entry of `dir` that lstat finds (`st`) but the listing does not: an alias.
 * Windows expands an 8.3 alias in realpath, so a plain entry's stored name is its realpath's last component,
 * proved to be listed in the same directory with the same identity. A link's realpath is its target, and a
 * volume that folds case only in some directories (ext4 casefold) expands nothing: then the entry is the one
 * listed entry of its kind, of that identity, among the links or the case variants. Undefined: unproved.
 */
async function storedName(
  dir: string,
  name: string,
  st: Identity,
  listed: readonly string[] | undefined,
): Promise<string | undefined> {
  const proved = async (n: string) =>
    (listed === undefined || listed.includes(n)) &&
    sameIdentity(
      st,
      await fs.lstat(path.join(dir, n)).catch(() => ({ dev: -1, ino: -1, isSymbolicLink: () => false })),
    );
  if (!st.isSymbolicLink()) {
    const real = await fs.realpath(path.join(dir, name)).catch(() => undefined);
    if (real !== undefined && path.dirname(real) === dir && (await proved(path.basename(real))))
      return path.basename(real);
  }
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const key = FOLDED_NAMES.fold(name.normalize("NFC"));
  const found: string[] = [];
  for (const e of entries) {
    if (e.isSymbolicLink() !== st.isSymbolicLink()) continue;
    if (!st.isSymbolicLink() && FOLDED_NAMES.fold(e.name.normalize("NFC")) !== key) continue;
    if (await proved(e.name)) found.push(e.name);
  }
  return found.length === 1 ? found[0] : undefined;
}

function aliasError(shown: string): ToolError {
  return new ToolError("denied", { reason: "alias", path: shown });
}

function fsErrorFor(err: unknown, shown: string): Error {
  if (err instanceof ToolError) return err;
  if (isErrno(err, "ELOOP")) return new ToolError("invalid", { reason: "symlink_loop", path: shown });
  if (isErrno(err, "ENAMETOOLONG")) return new ToolError("invalid", { reason: "name_too_long", path: shown });
  if (isErrno(err, "EACCES", "EPERM")) return new ToolError("os_denied", { path: shown });
  if (isErrno(err, "ENOTDIR"))
    return new ToolError("not_directory", { reason: "parent_is_file", path: shown });
  return new ToolError("io", { reason: "resolve", path: shown });
}
