/**
 * The read-only code tools' file cache: a file whose identity and times are unchanged since it was read
 * (same device, inode, size, mtime and ctime, seen by lstat on the path the gate resolved) is not read,
 * hashed or parsed again. A file changed within the last 2 s is not kept (a write in the same clock tick
 * could leave its times unchanged); a link or another file put in its place has another identity and is
 * read afresh through the verified open. Edits never use it: they read the file themselves.
 */
import { lstat } from "node:fs/promises";
import { type Fingerprint, fingerprintOf, sameFingerprint } from "../fs/hash.js";
import type { ResolvedPath } from "../workspace.js";

/**
 * Entries kept for this weight in all (least recently used dropped first): the server's RSS budget for the
 * code tools, which walk whole trees (a tree-wide search of a large monorepo must not keep every file).
 */
const CACHE_WEIGHT = 16 * 1024 * 1024;
/** A file modified less than this long before it was read may change again without its times changing. */
const RACY_MS = 2000;

interface Entry<V> {
  fingerprint: Fingerprint;
  value: V;
  weight: number;
}

export class ViewCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private weight = 0;

  /** The value kept for this path if the file is still the one read; else `read()`'s, kept when settled. */
  async get(
    target: ResolvedPath,
    read: () => Promise<{ value: V; fingerprint: Fingerprint; weight: number }>,
  ): Promise<V> {
    const key = target.real;
    const hit = this.entries.get(key);
    if (hit) {
      const now = await lstat(key, { bigint: true }).then(fingerprintOf, () => undefined);
      if (now && sameFingerprint(now, hit.fingerprint)) {
        this.entries.delete(key); // re-inserted: Map order is the LRU order
        this.entries.set(key, hit);
        return hit.value;
      }
      this.drop(key);
    }
    const fresh = await read();
    const age = Date.now() - Number(fresh.fingerprint.mtimeNs / 1_000_000n);
    if (age >= RACY_MS && fresh.weight <= CACHE_WEIGHT) this.keep(key, fresh);
    return fresh.value;
  }

  private keep(key: string, e: Entry<V>): void {
    this.entries.set(key, e);
    this.weight += e.weight;
    while (this.weight > CACHE_WEIGHT) {
      const oldest = this.entries.keys().next().value!;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.weight -= e.weight;
  }
}
