/**
 * The undo journal's flat directory per root: the caps drop the oldest changes first (the watermark, then
 * their files, then segments of dropped records only), by size per root and by age; a kill's leftovers are
 * swept; names it does not own are left; a record line cut short is no change, one edited is refused.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Root } from "../workspace.js";
import { ChangeLog } from "./change-log.js";
import { RecordWriter } from "./change-records.js";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-change-log-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const log = { warn() {}, error() {}, info() {}, debug() {} } as never;
const DAY = 24 * 3600 * 1000;

/** A change id of the given time. */
function idAt(ms: number, n: number): string {
  return `${ms.toString(36).padStart(9, "0")}-${n.toString(16).padStart(12, "0")}`;
}

/** A change's files as the recorder leaves them. */
function put(dir: string, id: string, ...suffixes: string[]): void {
  for (const s of suffixes) fs.writeFileSync(path.join(dir, `${id}.${s}`), `${id}.${s}`);
}

/** A record body as the recorder writes it. */
function body(id: string, size = 0): string {
  const entries = [{ op: "path", root: "/somewhere", rel: "f.txt", pre: null, post: null }];
  return JSON.stringify({
    v: 1,
    id,
    time: new Date().toISOString(),
    tool: "write_file",
    size,
    undoable: true,
    entries,
  });
}

describe("ChangeLog.account", () => {
  it("drops changes older than the age cap, oldest first, with their files, and keeps the rest", async () => {
    const dir = fs.mkdtempSync(path.join(base, "age-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxDays: 7 });
    const now = Date.now();
    const ids = [idAt(now - 9 * DAY, 1), idAt(now - 8 * DAY, 2), idAt(now - 1 * DAY, 3)];
    for (const id of ids) {
      put(dir, id, "0", "1", "undone");
      cl.append(dir, id, body(id, 10));
      await cl.account(dir, id, { size: 10, blobs: ["0", "1"] }, now);
    }
    const left = fs.readdirSync(dir).filter((n) => !n.endsWith(".log"));
    expect(left.sort()).toEqual(["dropped", ...["0", "1", "undone"].map((s) => `${ids[2]}.${s}`)].sort());
    const listed = await cl.list([{ real: "/somewhere" } as Root]);
    expect(listed.map((c) => c.body.id)).toEqual([ids[2]]);
    // A later process reads the same: the dropped ones stay dropped.
    const again = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxDays: 7 });
    expect((await again.list([{ real: "/somewhere" } as Root])).map((c) => c.body.id)).toEqual([ids[2]]);
  });

  it("drops the oldest until the size cap holds, never the change just made", async () => {
    const dir = fs.mkdtempSync(path.join(base, "size-"));
    const cl = new ChangeLog({
      log,
      dirOf: () => dir,
      ensureRootDir: async () => dir,
      maxBytes: 100,
      minAgeMs: 0,
    });
    const now = Date.now();
    const ids = [1, 2, 3, 4].map((n) => idAt(now - (10 - n) * 1000, n));
    for (const id of ids) {
      put(dir, id, "0");
      fs.mkdirSync(path.join(dir, `${id}.1`)); // a deleted tree kept whole
      fs.writeFileSync(path.join(dir, `${id}.1`, "inside.txt"), "x");
      cl.append(dir, id, body(id, 40));
      await cl.account(dir, id, { size: 40, blobs: ["0", "1"] }, now);
    }
    const left = fs.readdirSync(dir).filter((n) => !n.endsWith(".log"));
    expect(left.sort()).toEqual(
      ["dropped", ...[ids[2], ids[3]].flatMap((id) => [`${id}.0`, `${id}.1`])].sort(),
    );
  });

  it("removes a segment once every record in it is dropped (not the one being appended to)", async () => {
    const dir = fs.mkdtempSync(path.join(base, "segments-"));
    const now = Date.now();
    const ids = [1, 2, 3].map((n) => idAt(now - (10 - n) * 1000, n));
    // An earlier process's segment with the two oldest records.
    const earlier = new RecordWriter(dir);
    const old = earlier.append(ids[0]!, body(ids[0]!, 40));
    earlier.append(ids[1]!, body(ids[1]!, 40));
    const cl = new ChangeLog({
      log,
      dirOf: () => dir,
      ensureRootDir: async () => dir,
      maxBytes: 50,
      minAgeMs: 0,
    });
    cl.append(dir, ids[2]!, body(ids[2]!, 40));
    await cl.account(dir, ids[2]!, { size: 40, blobs: [] }, now);
    expect(fs.existsSync(path.join(dir, old))).toBe(false);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith(".log"))).toHaveLength(1);
    expect((await cl.list([{ real: "/somewhere" } as Root])).map((c) => c.body.id)).toEqual([ids[2]]);
  });
});

describe("the drop watermark", () => {
  it("never goes back: a process with an older view cannot bring dropped changes back", async () => {
    const dir = fs.mkdtempSync(path.join(base, "watermark-"));
    const now = Date.now();
    const [a, b] = [idAt(now - 2000, 1), idAt(now - 1000, 2)];
    const w = new RecordWriter(dir);
    w.append(a!, body(a!));
    w.append(b!, body(b!));
    new RecordWriter(dir).markDropped(b!);
    new RecordWriter(dir).markDropped(a!);
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    expect(await cl.list([{ real: "/somewhere" } as Root])).toEqual([]);
  });
});

describe("a root's journal directory read the first time", () => {
  it("sweeps pre-images no record or intent claims once old; leaves young ones, intents and names it does not own", async () => {
    const dir = fs.mkdtempSync(path.join(base, "sweep-"));
    const now = Date.now();
    const old = (n: number) => idAt(now - 3600 * 1000, n);
    const young = idAt(now - 1000, 9);
    put(dir, old(1), "0", "1", "undone"); // a kill between pre-images and record: swept
    put(dir, young, "0"); // maybe a change another process is making now: kept
    // Pre-images of an intent recovery has not rolled back yet, and of one it set aside: kept.
    put(dir, old(2), "0");
    put(dir, old(3), "0");
    fs.mkdirSync(path.join(dir, "intents"));
    put(path.join(dir, "intents"), old(2), "intent");
    put(path.join(dir, "intents"), old(3), "intent.kept");
    put(dir, old(6), "0"); // recorded: kept
    new RecordWriter(dir).append(old(6), body(old(6), 5));
    // Names of another shape: an older layout's change directory, a stray file.
    fs.mkdirSync(path.join(dir, `${old(4)}.change`));
    fs.writeFileSync(path.join(dir, `${old(4)}.change`, "record"), "mcpfs-change 1 x\n{}\n");
    fs.mkdirSync(path.join(dir, old(5)));
    fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
    fs.writeFileSync(path.join(dir, "root"), "/somewhere\n");
    const before = fs.readdirSync(dir).sort();
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    expect((await cl.list([{ real: "/somewhere" } as Root])).map((c) => c.body.id)).toEqual([old(6)]);
    await cl.account(dir, young, { size: 1, blobs: ["0"] }, now);
    const swept = ["0", "1", "undone"].map((s) => `${old(1)}.${s}`);
    expect(fs.readdirSync(dir).sort()).toEqual(before.filter((n) => !swept.includes(n)));
    expect(await cl.find([{ real: "/somewhere" } as Root], old(4))).toBeUndefined();
  });

  it("never sweeps the pre-images of a call of this process still recording, however long it runs", async () => {
    const dir = fs.mkdtempSync(path.join(base, "live-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    vi.setSystemTime(Date.now() - 3600 * 1000);
    const long = cl.recorder("copy_file");
    vi.useRealTimers();
    put(dir, long.id, "0");
    const other = cl.recorder("write_file");
    cl.append(dir, other.id, body(other.id));
    await cl.account(dir, other.id, { size: 0, blobs: [] });
    expect(fs.existsSync(path.join(dir, `${long.id}.0`))).toBe(true);
  });

  it("a record line cut short is no change; a line that fails its hash is refused", async () => {
    const dir = fs.mkdtempSync(path.join(base, "torn-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    const roots = [{ real: "/somewhere" } as Root];
    const [whole, cut, edited] = [1, 2, 3].map((n) => idAt(Date.now(), n));
    const w = new RecordWriter(dir);
    const seg = w.append(whole!, body(whole!));
    w.append(edited!, body(edited!));
    const p = path.join(dir, seg);
    fs.writeFileSync(p, fs.readFileSync(p, "utf8").replace(`${edited}","time"`, `${edited}","tome"`));
    // A power loss in the middle of an append: the last line has no newline.
    fs.appendFileSync(p, `mcpfs-change 1 ${"0".repeat(64)} ${body(cut!).slice(0, 60)}`);
    expect(await cl.find(roots, cut!)).toBeUndefined();
    expect(await cl.find(roots, edited!)).toBe("tampered");
    expect(await cl.find(roots, whole!)).toMatchObject({ body: { id: whole } });
    expect((await cl.list(roots)).map((c) => c.body.id)).toEqual([whole]);
  });
});
