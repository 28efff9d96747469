/**
 * get_file_info's times are the ones a plain stat shows (the official server's): one verified open gives the
 * metadata as BigIntStats, whose own Date truncates the milliseconds where a number stat rounds them, so a
 * file modified at x.yyy999999 s was shown a millisecond early.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { serverPool } from "../helpers/in-process.js";

const area = tempArea("mcpfs-times-");
afterAll(() => area.cleanup());
const start = serverPool();

describe.skipIf(process.platform === "win32")("get_file_info times", () => {
  it("equal a number stat's, milliseconds rounded as it rounds them", async () => {
    const dir = area.tree("t", { "a.txt": "a\n", "b.txt": "b\n" });
    // Nanosecond times (GNU touch) just under the next millisecond, and just over one.
    const times = { "a.txt": "@1700000000.123999999", "b.txt": "@1700000000.123000001" };
    for (const [name, at] of Object.entries(times))
      execFileSync("touch", ["-m", "-d", at, path.join(dir, name)]);
    const conn = await start([dir]);
    for (const name of Object.keys(times)) {
      const p = path.join(dir, name);
      const r = await conn.call("get_file_info", { path: p });
      expect(r.structured?.modified, name).toBe(fs.statSync(p).mtime.toISOString());
    }
    expect(fs.statSync(path.join(dir, "a.txt")).mtime.toISOString()).toBe("2023-11-14T22:13:20.124Z");
  });
});
