/**
 * The undo journal's flat directory per root: the caps drop the oldest changes first (record, then
 * pre-images), by size per root and by age; a kill's leftovers are swept; names it does not own are left.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChangeLog } from "../../src/core/files/change-log.js";
import type { Root } from "../../src/core/workspace.js";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-change-log-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const log = { warn() {}, error() {}, info() {}, debug() {} } as never;
const DAY = 24 * 3600 * 1000;

/** A change id of the given time. */
function idAt(ms: number, n: number): string {
  return `${ms.toString(36).padStart(9, "0")}-${n.toString(16).padStart(12, "0")}`;
}

/** A change's files as the recorder leaves them (the record's content is not read by `account`). */
function put(dir: string, id: string, ...suffixes: string[]): void {
  for (const s of suffixes) fs.writeFileSync(path.join(dir, `${id}.${s}`), `${id}.${s}`);
}

describe("ChangeLog.account", () => {
  it("drops changes older than the age cap, oldest first, record and pre-images, and keeps the rest", async () => {
    const dir = fs.mkdtempSync(path.join(base, "age-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxDays: 7 });
    const now = Date.now();
    const ids = [idAt(now - 9 * DAY, 1), idAt(now - 8 * DAY, 2), idAt(now - 1 * DAY, 3)];
    for (const id of ids) put(dir, id, "change", "0", "1", "undone");
    for (const id of ids) await cl.account(dir, id, { size: 10, blobs: ["0", "1"] }, now);
    expect(fs.readdirSync(dir).sort()).toEqual(
      ["change", "0", "1", "undone"].map((s) => `${ids[2]}.${s}`).sort(),
    );
  });

  it("drops the oldest until the size cap holds, never the change just made", async () => {
    const dir = fs.mkdtempSync(path.join(base, "size-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxBytes: 100 });
    const now = Date.now();
    const ids = [1, 2, 3, 4].map((n) => idAt(now - (10 - n) * 1000, n));
    for (const id of ids) {
      put(dir, id, "change", "0");
      fs.mkdirSync(path.join(dir, `${id}.1`)); // a deleted tree kept whole
      fs.writeFileSync(path.join(dir, `${id}.1`, "inside.txt"), "x");
      await cl.account(dir, id, { size: 40, blobs: ["0", "1"] }, now);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(
      [ids[2], ids[3]].flatMap((id) => [`${id}.0`, `${id}.1`, `${id}.change`]).sort(),
    );
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
    put(dir, old(2), "intent", "0"); // an intent recovery has not rolled back yet: kept
    put(dir, old(3), "intent.kept", "0"); // set aside by recovery: kept
    // Names of another shape: an older layout's change directory, a stray file.
    fs.mkdirSync(path.join(dir, `${old(4)}.change`));
    fs.writeFileSync(path.join(dir, `${old(4)}.change`, "record"), "mcpfs-change 1 x\n{}\n");
    fs.mkdirSync(path.join(dir, old(5)));
    fs.writeFileSync(path.join(dir, "notes.txt"), "mine");
    fs.writeFileSync(path.join(dir, "root"), "/somewhere\n");
    const before = fs.readdirSync(dir).sort();
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    expect(await cl.list([{ real: "/somewhere" } as Root])).toEqual([]);
    await cl.account(dir, young, { size: 1, blobs: ["0"] }, now);
    const swept = ["0", "1", "undone"].map((s) => `${old(1)}.${s}`);
    expect(fs.readdirSync(dir).sort()).toEqual(before.filter((n) => !swept.includes(n)));
    expect(await cl.find([{ real: "/somewhere" } as Root], old(4))).toBeUndefined();
  });

  it("an empty record (created, killed before its bytes) is no change; a record that fails its hash is refused", async () => {
    const dir = fs.mkdtempSync(path.join(base, "torn-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir });
    const roots = [{ real: "/somewhere" } as Root];
    const [empty, torn] = [idAt(Date.now(), 1), idAt(Date.now(), 2)];
    fs.writeFileSync(path.join(dir, `${empty}.change`), "");
    fs.writeFileSync(path.join(dir, `${torn}.change`), 'mcpfs-change 1 0000\n{"v":1,"id":"');
    expect(await cl.find(roots, empty)).toBeUndefined();
    expect(await cl.find(roots, torn)).toBe("tampered");
    expect(await cl.list(roots)).toEqual([]);
  });
});
