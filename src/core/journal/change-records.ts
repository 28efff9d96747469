/**
 * Where the undo journal's records live: appended, one line each, to segment files `<segment id>.log` in a
 * root's journal directory (journal-names.ts), each line
 *
 *     mcpfs-change 1 <sha256 of the JSON> <body JSON>\n
 *
 * written by one write(2) to a segment this process opened (O_APPEND, 0600; a new segment past
 * SEGMENT_BYTES). Why not one file per change: creating a file allocates an inode, measured at 300-500 µs
 * here (ext4) against ~20 µs for an append — a record file cost a small write more than everything else
 * the journal does for it. A line cut short (a power loss) or edited fails its hash: never applied.
 *
 * Changes dropped by the caps go oldest first, so "dropped" is one watermark, the newest dropped id, kept
 * in the file `dropped` (rewritten in place): a record at or below it is gone, and a segment whose records
 * all are is removed.
 */
import fsSync, { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { sha256Of } from "../fs/hash.js";
import { lfPieces } from "../text/lines.js";
import { newChangeId, parseJournalName } from "./journal-names.js";

const MAGIC = "mcpfs-change 1";
/** A segment this large gets a successor (about 2,000 records of small writes). */
const SEGMENT_BYTES = 1024 * 1024;
const DROPPED = "dropped";
const ID_IN_JSON = /^\{"v":1,"id":"([0-9a-z]{9}-[0-9a-f]{12})"/;

/** What the record lines of a root's journal say. */
export interface RecordSet {
  /** Per change id above the watermark: its body JSON, or "tampered" when its line fails its hash. */
  records: Map<string, string>;
  /** Segment file names with the newest id recorded in each. */
  segments: Map<string, string>;
  /** The newest dropped change id ("" when none was dropped). */
  dropped: string;
}

export const TAMPERED = "tampered";

/** The record lines of one root's journal directory (`names`: its listing). */
export async function readRecords(dir: string, names: readonly string[]): Promise<RecordSet> {
  const dropped = (await fs.readFile(path.join(dir, DROPPED), "utf8").catch(() => "")).trim();
  const set: RecordSet = { records: new Map(), segments: new Map(), dropped };
  for (const name of names) {
    if (parseJournalName(name)?.kind !== "log") continue;
    const text = await fs.readFile(path.join(dir, name), "utf8").catch(() => "");
    let newest = "";
    // A last line without its newline is being written (or was cut short): not a record yet.
    for (const line of lfPieces(text).slice(0, -1)) {
      const rec = parseLine(line);
      if (!rec) continue;
      if (rec.id > newest) newest = rec.id;
      if (rec.id > dropped) set.records.set(rec.id, rec.json);
    }
    set.segments.set(name, newest);
  }
  return set;
}

function parseLine(line: string): { id: string; json: string } | undefined {
  const head = `${MAGIC} `;
  if (!line.startsWith(head)) return undefined;
  const json = line.slice(head.length + 65);
  const id = ID_IN_JSON.exec(json)?.[1];
  if (!id) return undefined;
  const ok = line.slice(head.length, head.length + 65) === `${sha256Of(json)} `;
  return { id, json: ok ? json : TAMPERED };
}

/** The records this process appends to one root's journal, and the watermark of what the caps dropped. */
export class RecordWriter {
  private fd?: number;
  private segment?: string;
  private bytes = 0;

  constructor(private readonly dir: string) {}

  /** The segment being appended to (never removed while it is). */
  get current(): string | undefined {
    return this.segment;
  }

  /** Appends one record, whole, in one write; returns its segment's name. */
  append(id: string, json: string): string {
    if (this.fd === undefined || this.bytes >= SEGMENT_BYTES) this.openSegment();
    const line = Buffer.from(`${MAGIC} ${sha256Of(json)} ${json}\n`);
    let written = 0;
    try {
      written = fsSync.writeSync(this.fd!, line);
    } finally {
      // A failed or short write (a full disk) leaves a cut line: the next record starts a new segment.
      if (written !== line.length) this.bytes = SEGMENT_BYTES;
    }
    if (written !== line.length) throw new Error(`short write of the record of ${id}`);
    this.bytes += line.length;
    return this.segment!;
  }

  private openSegment(): void {
    if (this.fd !== undefined) fsSync.closeSync(this.fd);
    this.fd = undefined;
    const name = `${newChangeId()}.log`;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;
    this.fd = fsSync.openSync(path.join(this.dir, name), flags, 0o600);
    this.segment = name;
    this.bytes = 0;
  }

  /**
   * Records that every change up to `id` is dropped (in place: the file is rewritten, not replaced). Never
   * backwards: another process may have dropped newer ones meanwhile.
   */
  markDropped(id: string): void {
    const p = path.join(this.dir, DROPPED);
    const now = fsSync.existsSync(p) ? fsSync.readFileSync(p, "utf8").trim() : "";
    if (id > now) fsSync.writeFileSync(p, `${id}\n`, { mode: 0o600 });
  }
}
