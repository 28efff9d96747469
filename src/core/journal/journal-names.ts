/**
 * The names of the change journal's files. One flat, owner-only directory per root (journal.ts says where)
 * holds every file of every change, named by the change's id:
 *
 *     <id>.<n>      its pre-images (n = 0, 1, ...): a file's old inode hard-linked, a copy, or a deleted tree
 *     <id>.undone   the id of the change that undid it
 *     intents/<id>.intent  the crash intent of its multi-file commit (journal.ts): written as `.intent.tmp`,
 *                   renamed, fsynced before the first rename, removed after the last; `.intent.refused` /
 *                   `.intent.kept` when recovery set it aside. A directory of its own, so the check before every multi-file change lists only
 *                   the few intents, not the whole journal
 *     <id>.log      a segment of change records (change-records.ts): one line per change, appended last —
 *                   no record, no change; named by an id of its own
 *     dropped       the newest change the caps dropped (change-records.ts)
 *
 * Why flat: a directory per change cost a mkdir and a record file (each a new inode: the dearest syscalls
 * of a small write), and for a multi-file change a second directory with a second set of links. Here a
 * change is its pre-images (links: no new inode) and one appended line, and the intent of a multi-file
 * change reuses the change's pre-images. Ids sort by time (base-36 milliseconds, then 12 random hex digits);
 * a name of any other shape (a leftover of an older layout, a stray file) is ignored, never read or removed.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";

const NAME = /^([0-9a-z]{9}-[0-9a-f]{12})\.(log|undone|intent|\d+)(?:\.(refused|kept|tmp))?$/;
export const CHANGE_ID = /^[0-9a-z]{9}-[0-9a-f]{12}$/;

/** A new change id: its time first, so ids (and the journal's names) sort by time. */
export function newChangeId(now = Date.now()): string {
  return `${now.toString(36).padStart(9, "0")}-${randomBytes(6).toString("hex")}`;
}

/** The time (ms) a change id was made at. */
export function idTime(id: string): number {
  return Number.parseInt(id.slice(0, 9), 36);
}

/** Where a root journal's crash intents are. */
export function intentsDirOf(rootDir: string): string {
  return path.join(rootDir, "intents");
}

/** The crash intent of change `<base>` (`<root journal dir>/<id>`). */
export function intentPathOf(base: string): string {
  return path.join(intentsDirOf(path.dirname(base)), `${path.basename(base)}.intent`);
}

/** What a name in a root's journal directory (or its `intents/`) is; undefined for a name the journal does not own. */
export function parseJournalName(
  name: string,
): { id: string; kind: "log" | "undone" | "intent" | "partial" | "set-aside" | "blob" } | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const part = m[2]!;
  if (m[3])
    return part !== "intent" ? undefined : { id: m[1]!, kind: m[3] === "tmp" ? "partial" : "set-aside" };
  const kind = part === "log" || part === "undone" || part === "intent" ? part : "blob";
  return { id: m[1]!, kind };
}
