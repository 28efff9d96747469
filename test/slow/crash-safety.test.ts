/**
 * Crash safety: a worker process (the core from src/, bundled into a temp folder) changes files in a loop
 * with write_file, edit_file, edit_files and apply_patch operations and is killed with SIGKILL at random
 * moments. After every kill each file must be exactly one complete version (never torn), and leftover temp
 * files must be hidden from listings and removable by the stale-temp sweep.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepStaleTemps } from "../../src/core/fs/atomic-write.js";
import { TEMP_NAME } from "../../src/core/fs/safe-open.js";
import { listDirectory } from "../../src/core/listing/listing.js";
import { walk } from "../../src/core/walk.js";
import { makeRoot, Workspace } from "../../src/core/workspace.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import { bundleCrashWorker } from "./crash-worker-build.js";

const KILLS_PER_OPERATION = 50; // 200 kills in all
// A large body makes each write take long enough for kills to land mid-write.
const BODY = `${Array.from({ length: 3000 }, (_, i) => `line ${i} ${"abcdefghij".repeat(3)}`).join("\n")}\n`;

const area = tempArea("mcpfs-crash-");
afterAll(() => area.cleanup());
let worker: string;
beforeAll(async () => {
  const built = await bundleCrashWorker();
  worker = built.worker;
  return built.cleanup;
});

/**
 * Starts a worker, waits until its first change is done, then SIGKILLs it anywhere in the next one or two
 * changes (a random share of 1.5 times the first change's duration): however long a change takes on this
 * machine's load, the kills land while files change, never all before the first change.
 */
function runAndKill(dir: string, op: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, dir, op], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    let out = "";
    let armed = false;
    child.stdout.on("data", (d) => {
      out += d;
      const done = /done (\d+)\n/.exec(out);
      if (armed || !done) return;
      armed = true;
      setTimeout(() => child.kill("SIGKILL"), Math.floor(Math.random() * Number(done[1]) * 1.5));
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`worker exited by itself (${code}): ${err}`));
    });
  });
}

function check(dir: string): { torn: string[]; temps: number; versions: number[] } {
  const torn: string[] = [];
  const versions: number[] = [];
  for (const name of ["a.txt", "b.txt"]) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const m = /^v(\d+)\n/.exec(text);
    if (!m || text !== `v${m[1]}\n${BODY}`) torn.push(`${name} (${text.length} chars)`);
    else versions.push(Number(m[1]));
  }
  const temps = fs.readdirSync(dir).filter((f) => TEMP_NAME.test(f)).length;
  return { torn, temps, versions };
}

describe("SIGKILL during changes", () => {
  const totals = { kills: 0, torn: 0, leftoverTemps: 0, tempsSeen: 0 };
  fs.writeFileSync(path.join(area.base, "body.mjs"), `export const body = ${JSON.stringify(BODY)};\n`);

  it.each(["write", "edit", "edit_files", "patch"])(
    "%s: every file is a whole old or new version after each kill",
    async (op) => {
      const dir = area.tree(op, { "a.txt": `v0\n${BODY}`, "b.txt": `v0\n${BODY}` });
      const root = await makeRoot(dir, "rw", "directory");
      const ws = new Workspace([root], filesystemPolicy.pathRules({}));
      let progressed = 0;
      for (let k = 0; k < KILLS_PER_OPERATION; k++) {
        const before = check(dir).versions;
        await runAndKill(dir, op);
        totals.kills++;
        const r = check(dir);
        totals.torn += r.torn.length;
        expect(r.torn, `kill ${k}`).toEqual([]);
        if (r.versions.some((v, i) => v !== before[i])) progressed++;
        // Leftover temps are never listed: not by walks (directory_tree, search) nor by list_directory.
        totals.tempsSeen += r.temps > 0 ? 1 : 0;
        const listed = await walk({ root, start: dir, gitignore: false });
        expect(listed.entries.map((e) => e.rel).sort()).toEqual(["a.txt", "b.txt"]);
        const entries = await listDirectory(ws, await ws.resolve(dir, { intent: "read" }));
        expect(entries.map((e) => e.name)).toEqual(["a.txt", "b.txt"]);
      }
      const left = check(dir).temps;
      totals.leftoverTemps += left;
      // Kills landed while changes were happening, not only before the first one.
      expect(progressed).toBeGreaterThan(0);
      // The sweep removes every leftover once it is old enough (here: any age).
      expect(await sweepStaleTemps(dir, 0, Date.now() + 1000)).toBe(left);
      expect(check(dir).temps).toBe(0);
    },
    300_000,
  );

  it("200 kills in all, 0 torn files", () => {
    process.stderr.write(
      `crash-safety: ${totals.kills} kills, ${totals.torn} torn files, ` +
        `a hidden temp file present after ${totals.tempsSeen} kills (never listed), ${totals.leftoverTemps} swept at the end\n`,
    );
    expect(totals.kills).toBe(4 * KILLS_PER_OPERATION);
    expect(totals.torn).toBe(0);
  });
});
