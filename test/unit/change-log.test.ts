/** The undo journal's caps: the oldest changes go first, by size per root and by age. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ChangeLog } from "../../src/core/files/change-log.js";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-change-log-"));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const log = { warn() {}, error() {}, info() {}, debug() {} } as never;
const DAY = 24 * 3600 * 1000;

/** A change directory as the recorder leaves it, with an id of the given time. */
function idAt(ms: number, n: number): string {
  return `${ms.toString(36).padStart(9, "0")}-${n.toString(16).padStart(12, "0")}`;
}

describe("ChangeLog.account", () => {
  it("drops changes older than the age cap, oldest first, and keeps the rest", async () => {
    const dir = fs.mkdtempSync(path.join(base, "age-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxDays: 7 });
    const now = Date.now();
    const ids = [idAt(now - 9 * DAY, 1), idAt(now - 8 * DAY, 2), idAt(now - 1 * DAY, 3)];
    for (const id of ids) fs.mkdirSync(path.join(dir, `${id}.change`));
    for (const id of ids) await cl.account(dir, id, 10, now);
    expect(fs.readdirSync(dir).sort()).toEqual([`${ids[2]}.change`]);
  });

  it("drops the oldest until the size cap holds, never the change just made", async () => {
    const dir = fs.mkdtempSync(path.join(base, "size-"));
    const cl = new ChangeLog({ log, dirOf: () => dir, ensureRootDir: async () => dir, maxBytes: 100 });
    const now = Date.now();
    const ids = [1, 2, 3, 4].map((n) => idAt(now - (10 - n) * 1000, n));
    for (const id of ids) {
      fs.mkdirSync(path.join(dir, `${id}.change`));
      await cl.account(dir, id, 40, now);
    }
    expect(fs.readdirSync(dir).sort()).toEqual([`${ids[2]}.change`, `${ids[3]}.change`]);
  });
});
