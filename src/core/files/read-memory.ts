/**
 * The texts one connection's client was shown by whole-file reads, by sha256. A lost-update refusal looks
 * up the version the client read (its expected hash) here to show a short diff of what changed since.
 * Bounded: a few dozen texts of modest size; the oldest go first.
 */
export class ReadMemory {
  readonly #texts = new Map<string, string>();
  #chars = 0;

  constructor(
    readonly maxEntries = 32,
    readonly maxChars = 4 * 1024 * 1024,
    readonly maxTextChars = 512 * 1024,
  ) {}

  /** Notes that a read returned `text`, the whole content of the version whose hash is `sha256`. */
  remember(sha256: string, text: string): void {
    if (text.length > this.maxTextChars) return;
    this.#drop(sha256);
    this.#texts.set(sha256, text);
    this.#chars += text.length;
    for (const [hash, old] of this.#texts) {
      if (this.#texts.size <= this.maxEntries && this.#chars <= this.maxChars) break;
      this.#texts.delete(hash);
      this.#chars -= old.length;
    }
  }

  /** The text read whose sha256 starts with `prefix` (a client may send a prefix of 8+ digits). */
  recall(prefix: string): string | undefined {
    const exact = this.#texts.get(prefix);
    if (exact !== undefined) return exact;
    for (const [hash, text] of this.#texts) if (hash.startsWith(prefix)) return text;
    return undefined;
  }

  #drop(sha256: string): void {
    const old = this.#texts.get(sha256);
    if (old === undefined) return;
    this.#texts.delete(sha256);
    this.#chars -= old.length;
  }
}
