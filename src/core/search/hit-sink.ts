import type { GrepLine, GrepMatch } from "./grep-job.js";
import type { LineSink } from "./line-searcher.js";

/**
 * Collects one file's hits with their context lines, the way ripgrep's searcher hands matches to a sink:
 * the sink keeps the lines before (a ring of `ctx`) and gives each hit the `ctx` lines after it; it never
 * knows how a match was found. With `firstOnly` it asks the search to stop at the first hit.
 */
export class HitSink implements LineSink {
  readonly hits: GrepMatch[] = [];
  private readonly ring: GrepLine[] = [];
  /** Hits still taking lines after them. */
  private readonly pending: GrepMatch[] = [];
  /** The hit of the line being read, found in a window of it (a line too long to hold), not yet ended. */
  private early: GrepMatch | undefined;

  constructor(
    private readonly rel: string,
    private readonly ctx: number,
    private readonly cut: (text: string, col: number) => string,
    private readonly firstOnly: boolean,
  ) {}

  get before(): number {
    return this.ctx;
  }

  get waiting(): boolean {
    return this.pending.length > 0 || this.early !== undefined;
  }

  get lineHit(): boolean {
    return this.early !== undefined;
  }

  line(no: number, text: string, col: number): boolean {
    const { ctx, pending } = this;
    if (pending.length > 0) {
      for (const p of pending) p.after.push({ line: no, text: this.cut(text, 0) });
      while (pending.length > 0 && pending[0]!.line + ctx <= no) pending.shift();
    }
    // A long line's hit takes its after-context from the lines after it, like any other hit.
    if (this.early && ctx > 0) pending.push(this.early);
    this.early = undefined;
    if (col >= 0) {
      const hit = this.hit(no, text, col);
      if (ctx > 0) pending.push(hit);
    }
    this.context(no, text);
    return this.firstOnly && this.hits.length > 0;
  }

  windowHit(no: number, text: string, col: number): boolean {
    this.early = this.hit(no, text, col);
    return this.firstOnly;
  }

  context(no: number, text: string): void {
    if (this.ctx === 0) return;
    this.ring.push({ line: no, text: this.cut(text, 0) });
    if (this.ring.length > this.ctx) this.ring.shift();
  }

  private hit(no: number, text: string, col: number): GrepMatch {
    const hit: GrepMatch = {
      path: this.rel,
      line: no,
      text: this.cut(text, col),
      before: [...this.ring],
      after: [],
    };
    this.hits.push(hit);
    return hit;
  }
}
