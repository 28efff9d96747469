import fs from "node:fs";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { FSWatcher } from "chokidar";
import type { Logger } from "../core/log.js";

type Listener = () => void;

/** Most paths one process watches (each costs kernel watches and memory, and the limit is per user). */
export const MAX_WATCHED_PATHS = 1024;
/** Most resource subscriptions one session holds. */
export const MAX_SESSION_SUBSCRIPTIONS = 128;

/** The error past a watch cap: the client is told which limit, and that unsubscribing frees room. */
export function watchLimitError(what: string, limit: number): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Too many resource subscriptions (${what}; the limit is ${limit}). Unsubscribe from some first.`,
  );
}

/**
 * One file watcher for the whole process, watching only files somebody subscribed to. Each subscription
 * gets a dispose function; the path is unwatched when its last subscriber leaves. Bursts of events on one
 * file (an atomic write is unlink+add or several changes) are collapsed into one notification.
 * A directory is watched by itself (one non-recursive watch: its entries), never its subtree — chokidar
 * would put a watch on every file and folder below it (6,003 for 3,000 ignored folders).
 */
export class FileWatchHub {
  private watcher: FSWatcher | undefined;
  /** chokidar is loaded on the first subscription only: most sessions never subscribe (cold start). */
  private loading: Promise<FSWatcher> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly dirWatchers = new Map<string, fs.FSWatcher>();

  constructor(
    private readonly log: Logger,
    private readonly debounceMs = 50,
    private readonly maxPaths = MAX_WATCHED_PATHS,
  ) {}

  /**
   * Calls `onChange` after `real` (an absolute, resolved path) changes, is replaced or removed; for a
   * directory, when an entry in it is added, removed or changed.
   * @throws ProtocolError past MAX_WATCHED_PATHS distinct paths for the process.
   */
  watch(real: string, onChange: Listener): () => void {
    let set = this.listeners.get(real);
    if (!set) {
      if (this.listeners.size >= this.maxPaths)
        throw watchLimitError(`${this.listeners.size} paths watched by this server`, this.maxPaths);
      set = new Set();
      this.listeners.set(real, set);
      if (fs.statSync(real, { throwIfNoEntry: false })?.isDirectory()) this.watchDirectory(real);
      else
        this.ensureWatcher().then(
          (w) => {
            if (this.listeners.has(real)) w.add(real);
          },
          (err) => this.log.warn({ err }, "file watcher failed to start"),
        );
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
        const dw = this.dirWatchers.get(real);
        if (dw) {
          dw.close();
          this.dirWatchers.delete(real);
        } else this.watcher?.unwatch(real);
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
    for (const w of this.dirWatchers.values()) w.close();
    this.dirWatchers.clear();
    await this.loading?.catch(() => undefined);
    await this.watcher?.close();
    this.watcher = undefined;
    this.loading = undefined;
  }

  private watchDirectory(real: string): void {
    try {
      const w = fs.watch(real, { persistent: true }, () => this.fire(real));
      w.on("error", (err) => this.log.warn({ err }, "directory watcher error"));
      this.dirWatchers.set(real, w);
    } catch (err) {
      this.log.warn({ err }, "could not watch a directory");
    }
  }

  private ensureWatcher(): Promise<FSWatcher> {
    this.loading ??= import("chokidar").then(({ watch }) => {
      const w = watch([], { ignoreInitial: true, atomic: true, persistent: true, followSymlinks: false });
      w.on("all", (_event, file) => this.fire(file));
      w.on("error", (err) => this.log.warn({ err }, "file watcher error"));
      this.watcher = w;
      return w;
    });
    return this.loading;
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
