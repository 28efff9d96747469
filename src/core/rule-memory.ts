import path from "node:path";

/** The compiled rules texts a root keeps at most (each a few KiB; the oldest goes first). */
const MATCHERS = 256;
/** The rules files whose last read a root keeps (see `readOnce`; the oldest goes first). */
const LAST_READS = 1024;

/**
 * The ignore rules as they stood when the server started, so that on the workspace surface (which refuses
 * what .gitignore files ignore) an agent's edit, move or delete of a rules file can add hidden paths but
 * never reveal one until restart: a path is ignored when the rules now or the rules at start say so.
 *
 * Captured lazily, never by a start-up walk: a rules file is remembered the first time anything reads it,
 * and before any change that could alter it (`Workspace` calls `remember` for a write to a rules file and
 * for the subtree of a folder moved or deleted, `markNew` for a place that does not exist yet, whose rules
 * files were therefore absent at start). Held by the root (`Root.startRules`), so every connection of the
 * process shares one memory. Keys are real paths in NFC, case-folded where the volume folds case. It also
 * keeps each rules text it met compiled (`compiled`), and each rules file's last read by its status
 * (`readOnce`), so the gate's per-call look at a rules file neither reads nor compiles the same rules again.
 */
export class RuleMemory {
  private readonly files = new Map<string, readonly string[] | null>();
  /** Places that did not exist when first written to (their rules files were absent at start). */
  private readonly newPlaces = new Set<string>();
  /** A change may have altered a rules file since start. */
  private changed = false;
  /** Compiled matchers by rules text (see `compiled`), oldest first. */
  private readonly matchers = new Map<string, unknown>();
  /** Each rules file's last read, with the status it was read under (see `readOnce`), oldest first. */
  private readonly lastReads = new Map<string, { status: string; lines: string[] | undefined }>();

  constructor(private readonly fold: (p: string) => string) {}

  private key(p: string): string {
    return this.fold(p.normalize("NFC"));
  }

  /** Some rules file may differ from start (ripgrep, which reads the files itself, is then re-checked). */
  get touched(): boolean {
    return this.changed;
  }

  /**
   * Folder `dir` held a `.gitignore` at start that a change may have removed since: a walk that finds none
   * there now still applies the start rules.
   */
  hadRulesIn(dir: string): boolean {
    return this.changed && Array.isArray(this.files.get(this.key(path.join(dir, ".gitignore"))));
  }

  /**
   * The lines `file` held at start, given what it holds now (undefined: absent or unreadable). The first look
   * remembers `now`, unless the file lies in a place created since start.
   */
  startOf(file: string, now: readonly string[] | undefined): readonly string[] | undefined {
    const k = this.key(file);
    const seen = this.files.get(k);
    if (seen !== undefined) return seen ?? undefined;
    const start = this.isNew(k) ? null : (now ?? null);
    this.files.set(k, start);
    return start ?? undefined;
  }

  /** The rules files remembered, each with the lines it held at start (keys in NFC, folded as the volume folds). */
  startFiles(): [string, readonly string[]][] {
    const out: [string, readonly string[]][] = [];
    for (const [file, lines] of this.files) if (lines) out.push([file, lines]);
    return out;
  }

  /**
   * The matcher `make` compiles from `lines`, made once per text: a root's rules files hold the same text
   * call after call. The texts of this root only (its case policy is the matcher's); at most MATCHERS kept.
   */
  compiled<T>(lines: readonly string[], make: () => T): T {
    const text = lines.join("\n");
    const hit = this.matchers.get(text) as T | undefined;
    if (hit !== undefined) return hit;
    const made = make();
    if (this.matchers.size >= MATCHERS) this.matchers.delete(this.matchers.keys().next().value!);
    this.matchers.set(text, made);
    return made;
  }

  /**
   * `read()`'s lines for `file`, read again only when its `status` (identity, size, modify and change times,
   * from one lstat) differs from the last read's: the gate asks for the same rules files on every call, and a
   * verified read costs an open, three status calls and a read. A write changes the change time, which no
   * call can set back (walk.test.ts rewrites a file three times at once, same size); the status is taken
   * before the read, so a write in between reads again next time. On a volume whose times are coarse (FAT:
   * 2 s, HFS+: 1 s) a same-size rewrite within one tick of the last read goes unseen until the next change:
   * the rules at start still apply, so that can only delay a rule added since.
   */
  readOnce(file: string, status: string, read: () => string[] | undefined): string[] | undefined {
    const hit = this.lastReads.get(file);
    if (hit?.status === status) return hit.lines;
    const lines = read();
    this.lastReads.delete(file);
    if (this.lastReads.size >= LAST_READS) this.lastReads.delete(this.lastReads.keys().next().value!);
    this.lastReads.set(file, { status, lines });
    return lines;
  }

  /** Called before a change to `file` (a rules file): remembers it if this is the first look. */
  remember(file: string, now: readonly string[] | undefined): void {
    this.startOf(file, now);
    this.changed = true;
  }

  /** Called before a folder is moved or deleted (its rules files, read first, may vanish from there). */
  touch(): void {
    this.changed = true;
  }

  /** `real` did not exist before this change: no rules file at or below it existed at start. */
  markNew(real: string): void {
    const k = this.key(real);
    if (!this.isNew(k)) this.newPlaces.add(k);
  }

  private isNew(k: string): boolean {
    if (this.newPlaces.size === 0) return false;
    for (let p = k; ; p = path.dirname(p)) {
      if (this.newPlaces.has(p)) return true;
      if (path.dirname(p) === p) return false;
    }
  }
}
