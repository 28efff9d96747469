import { type FSWatcher, watch } from "chokidar";
import type { Logger } from "../core/log.js";

type Listener = () => void;

/**
 * One file watcher for the whole process, watching only files somebody subscribed to. Each subscription
 * gets a dispose function; the path is unwatched when its last subscriber leaves. Bursts of events on one
 * file (an atomic write is unlink+add or several changes) are collapsed into one notification.
 */
export class FileWatchHub {
  private watcher: FSWatcher | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly log: Logger,
    private readonly debounceMs = 50,
  ) {}

  /** Calls `onChange` after `real` (an absolute, resolved file path) changes, is replaced or removed. */
  watch(real: string, onChange: Listener): () => void {
    let set = this.listeners.get(real);
    if (!set) {
      set = new Set();
      this.listeners.set(real, set);
      this.ensureWatcher().add(real);
    }
    set.add(onChange);
    let disposed = false;
    return () => {
      if (disposed) return;
      disposed = true;
      const s = this.listeners.get(real);
      if (!s) return;
      s.delete(onChange);
      if (s.size === 0) {
        this.listeners.delete(real);
        this.watcher?.unwatch(real);
        clearTimeout(this.timers.get(real));
        this.timers.delete(real);
      }
    };
  }

  /** Number of files being watched (for tests and logs). */
  get size(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.listeners.clear();
    await this.watcher?.close();
    this.watcher = undefined;
  }

  private ensureWatcher(): FSWatcher {
    if (this.watcher) return this.watcher;
    const w = watch([], { ignoreInitial: true, atomic: true, persistent: true, followSymlinks: false });
    w.on("all", (_event, file) => this.fire(file));
    w.on("error", (err) => this.log.warn({ err }, "file watcher error"));
    this.watcher = w;
    return w;
  }

  private fire(file: string): void {
    if (!this.listeners.has(file) || this.timers.has(file)) return;
    this.timers.set(
      file,
      setTimeout(() => {
        this.timers.delete(file);
        for (const l of this.listeners.get(file) ?? []) {
          try {
            l();
          } catch (err) {
            this.log.warn({ err }, "resource update listener failed");
          }
        }
      }, this.debounceMs),
    );
  }
}
