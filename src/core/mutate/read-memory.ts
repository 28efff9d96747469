import { DIFF_TEXT_LIMIT } from "./precondition.js";

/**
 * Characters of remembered reads that all connections of one process may hold together. Without it, a
 * thousand HTTP sessions could each keep their own few megabytes.
 */
export class ReadBudget {
  #used = 0;

  constructor(readonly maxChars = 32 * 1024 * 1024) {}

  get used(): number {
    return this.#used;
  }

  take(chars: number): boolean {
    if (this.#used + chars > this.maxChars) return false;
    this.#used += chars;
    return true;
  }

  give(chars: number): void {
    this.#used -= chars;
  }
}

/**
 * The texts one connection's client was shown by whole-file reads, by sha256. A lost-update refusal looks
 * up the version the client read (its expected hash) here to show a short diff of what changed since.
 * Bounded: a few dozen texts of modest size per connection, the oldest go first, and all connections of a
 * process share one budget (when it is spent, a read is simply not remembered: the refusal then comes
 * without the diff).
 */
export class ReadMemory {
  readonly #texts = new Map<string, string>();
  #chars = 0;

  readonly maxEntries: number;
  readonly maxChars: number;
  readonly maxTextChars: number;
  readonly budget: ReadBudget;

  constructor(
    opts: { maxEntries?: number; maxChars?: number; maxTextChars?: number; budget?: ReadBudget } = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 32;
    this.maxChars = opts.maxChars ?? 4 * 1024 * 1024;
    this.maxTextChars = opts.maxTextChars ?? DIFF_TEXT_LIMIT;
    this.budget = opts.budget ?? new ReadBudget();
  }

  /** Notes that a read returned `text`, the whole content of the version whose hash is `sha256`. */
  remember(sha256: string, text: string): void {
    if (text.length > this.maxTextChars) return;
    this.#drop(sha256);
    // Own oldest first, until this connection's limits and the shared budget have room.
    for (const hash of this.#texts.keys()) {
      const fits =
        this.#texts.size < this.maxEntries &&
        this.#chars + text.length <= this.maxChars &&
        this.budget.used + text.length <= this.budget.maxChars;
      if (fits) break;
      this.#drop(hash);
    }
    if (this.#texts.size >= this.maxEntries || this.#chars + text.length > this.maxChars) return;
    if (!this.budget.take(text.length)) return;
    this.#texts.set(sha256, text);
    this.#chars += text.length;
  }

  /** The text read whose sha256 starts with `prefix` (a client may send a prefix of 8+ digits). */
  recall(prefix: string): string | undefined {
    const exact = this.#texts.get(prefix);
    if (exact !== undefined) return exact;
    for (const [hash, text] of this.#texts) if (hash.startsWith(prefix)) return text;
    return undefined;
  }

  /** Forgets everything (the connection closed), returning its share of the budget. */
  clear(): void {
    for (const hash of [...this.#texts.keys()]) this.#drop(hash);
  }

  #drop(sha256: string): void {
    const old = this.#texts.get(sha256);
    if (old === undefined) return;
    this.#texts.delete(sha256);
    this.#chars -= old.length;
    this.budget.give(old.length);
  }
}
