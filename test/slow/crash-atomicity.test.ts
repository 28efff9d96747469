/**
 * Crash atomicity of multi-file changes through the change journal: a worker (the core from src/, bundled
 * into a temp folder) changes five files at once with edit_files and apply_patch in a loop and is SIGKILLed
 * at random moments; then the installed server is started on the same directory (it rolls back what the kill left half-done before
 * serving) and every time all five files must be one and the same version. Plus: a tampered record is not
 * applied, read-only roots are never touched, `--no-journal` writes nothing, journal files are owner-only.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { MCPFS_BIN, SERVER_NODE, startServer } from "../helpers/server.js";
import { bundleCrashWorker } from "./crash-worker-build.js";

const KILLS_PER_OPERATION = 100; // 200 kills in all
const NAMES = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"];
const BODY = `${Array.from({ length: 3000 }, (_, i) => `line ${i} ${"abcdefghij".repeat(3)}`).join("\n")}\n`;
const POSIX = process.platform !== "win32";

const area = tempArea("mcpfs-atomic-");
afterAll(() => area.cleanup());
let worker: string;
beforeAll(async () => {
  const built = await bundleCrashWorker();
  worker = built.worker;
  return built.cleanup;
});
fs.writeFileSync(path.join(area.base, "body.mjs"), `export const body = ${JSON.stringify(BODY)};\n`);

function fiveFiles(rel: string): string {
  return area.tree(rel, Object.fromEntries(NAMES.map((n) => [n, `v0\n${BODY}`])));
}

/**
 * Runs the worker; kills it `delayMs` after it is ready (or lets it kill itself: `partial5`), or, with
 * `afterFirst`, once its first change is done, after `afterFirst(ms that change took)`.
 */
function runWorker(
  dir: string,
  op: string,
  stateDir: string,
  delayMs = 0,
  env: Record<string, string> = {},
  afterFirst?: (changeMs: number) => number,
) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [worker, dir, op, stateDir], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
    });
    let out = "";
    let armed = false;
    child.stdout.on("data", (d) => {
      out += d;
      const done = afterFirst && /done (\d+)\n/.exec(out);
      if (armed || (afterFirst && !done)) return;
      armed = true;
      setTimeout(() => child.kill("SIGKILL"), done ? afterFirst(Number(done[1])) : delayMs);
    });
    child.on("exit", (code, signal) => {
      if (signal === "SIGKILL") resolve();
      else reject(new Error(`worker exited by itself (${code}): ${err}`));
    });
  });
}

/** Starts the built server on `args` until it serves (recovery runs before that), then stops it. */
function restartServer(args: string[], stateDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER_NODE, [MCPFS_BIN, ...args], {
      stdio: ["pipe", "ignore", "pipe"],
      env: { ...process.env, MCPFS_STATE_DIR: stateDir },
    });
    let err = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.stderr.on("data", (d) => {
      err += d;
      if (err.includes("Secure MCP Filesystem Server running on stdio")) child.stdin.end();
    });
    child.on("exit", () => {
      clearTimeout(timer);
      if (err.includes("running on stdio")) resolve(err);
      else reject(new Error(`server did not start: ${err}`));
    });
  });
}

function versions(dir: string): { versions: number[]; torn: string[] } {
  const out: number[] = [];
  const torn: string[] = [];
  for (const name of NAMES) {
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const m = /^v(\d+)\n/.exec(text);
    if (!m || text !== `v${m[1]}\n${BODY}`) torn.push(name);
    else out.push(Number(m[1]));
  }
  return { versions: out, torn };
}

const allSame = (v: number[]) => v.every((x) => x === v[0]);

/** Every entry below `dir`, with its stat. */
function walkAll(dir: string): { p: string; st: fs.Stats }[] {
  const out: { p: string; st: fs.Stats }[] = [];
  for (const e of fs.readdirSync(dir)) {
    const p = path.join(dir, e);
    const st = fs.lstatSync(p);
    out.push({ p, st });
    if (st.isDirectory()) out.push(...walkAll(p));
  }
  return out;
}

/** Intents not yet committed (a commit removes its intent). */
const pending = (stateDir: string) => walkAll(stateDir).filter((e) => e.p.endsWith(".intent"));

describe("SIGKILL during a 5-file change, then a restart", () => {
  const totals = { kills: 0, partialBeforeRestart: 0, mixedAfterRestart: 0, progressed: 0 };

  it.each(["edit_files5", "patch5"])(
    "%s: after every kill and restart the 5 files are all old or all new",
    async (op) => {
      const dir = fiveFiles(op);
      const stateDir = area.tree(`${op}-state`);
      let last = 0;
      for (let k = 0; k < KILLS_PER_OPERATION; k++) {
        // Anywhere in the next one or two changes, however long a change takes on this machine's load.
        await runWorker(dir, op, stateDir, 0, {}, (ms) => Math.floor(Math.random() * ms * 1.5));
        totals.kills++;
        const killed = versions(dir);
        expect(killed.torn, `kill ${k}`).toEqual([]);
        if (!allSame(killed.versions)) totals.partialBeforeRestart++;
        await restartServer([dir], stateDir);
        const after = versions(dir);
        expect(after.torn).toEqual([]);
        if (!allSame(after.versions)) totals.mixedAfterRestart++;
        expect(after.versions, `kill ${k}: ${killed.versions} before the restart`).toEqual(
          NAMES.map(() => after.versions[0]),
        );
        expect(pending(stateDir), `kill ${k}`).toEqual([]);
        if (after.versions[0]! > last) totals.progressed++;
        last = after.versions[0]!;
      }
    },
    600_000,
  );

  it("200 kills in all; none left the files mixed after the restart", () => {
    process.stderr.write(
      `crash-atomicity: ${totals.kills} kills, ${totals.partialBeforeRestart} left a partial change, ` +
        `${totals.mixedAfterRestart} mixed after the restart, ${totals.progressed} made progress\n`,
    );
    expect(totals.kills).toBe(2 * KILLS_PER_OPERATION);
    expect(totals.progressed).toBeGreaterThan(0);
    // How many random kills land between a change's first and last rename depends on the machine's load
    // (about 1 in 10 on a quiet one, none at times on a loaded one): reported above, not asserted. A kill
    // mid-commit is made certain below (the worker kills itself after 3 of 5 files) and rolled back there.
    expect(totals.mixedAfterRestart).toBe(0);
  });
});

describe("the journal's rules", () => {
  it.each([
    ["hard-linked", "linked", {}],
    ["copied (as across devices)", "copied", { CRASH_COPY: "1" }],
    ["its own (no change recorded)", "own", { CRASH_NO_UNDO: "1" }],
    ["its own copied", "own-copied", { CRASH_NO_UNDO: "1", CRASH_COPY: "1" }],
  ])("a change killed after 3 of 5 files is rolled back from %s pre-images", async (_, name, env) => {
    const dir = fiveFiles(`partial-${name}`);
    const stateDir = area.tree(`partial-${name}-state`);
    if (POSIX) fs.chmodSync(path.join(dir, "b.txt"), 0o640);
    await runWorker(dir, "partial5", stateDir, 0, env);
    expect(versions(dir).versions).toEqual([1, 1, 1, 0, 0]);
    expect(pending(stateDir)).toHaveLength(1);
    // The journal is owner-only: directories 0700, files 0600 (a linked pre-image with other links, i.e.
    // the target's own backup while the change is open, keeps its inode's mode inside the 0700 directory).
    if (POSIX)
      for (const { p, st } of walkAll(stateDir)) {
        if (st.isDirectory()) expect((st.mode & 0o777).toString(8), p).toBe("700");
        else if (st.nlink === 1) expect((st.mode & 0o777).toString(8), p).toBe("600");
      }
    const log = await restartServer([dir], stateDir);
    expect(versions(dir).versions).toEqual([0, 0, 0, 0, 0]);
    for (const n of NAMES) expect(fs.readFileSync(path.join(dir, n), "utf8")).toBe(`v0\n${BODY}`);
    if (POSIX) expect((fs.statSync(path.join(dir, "b.txt")).mode & 0o777).toString(8)).toBe("640");
    expect(pending(stateDir)).toEqual([]);
    expect(log).toMatch(/rolled back change/);
    // The rolled-back change's pre-images went with its intent: the journal holds only its `root` file.
    const journal = walkAll(stateDir).filter((e) => e.st.isFile());
    expect(journal.map((e) => path.basename(e.p))).toEqual(["root"]);
  });

  it("a created file and the directories made for it go again", async () => {
    const dir = fiveFiles("created");
    const stateDir = area.tree("created-state");
    await runWorker(dir, "partial5new", stateDir);
    expect(fs.readFileSync(path.join(dir, "new/dir/f.txt"), "utf8")).toBe("created\n");
    expect(versions(dir).versions).toEqual([1, 1, 0, 0, 0]);
    await restartServer([dir], stateDir);
    expect(versions(dir).versions).toEqual([0, 0, 0, 0, 0]);
    // No new/ left (the kill's hidden temps are swept later, as ever).
    expect(
      fs
        .readdirSync(dir)
        .filter((n) => !n.startsWith(".mcpfs-"))
        .sort(),
    ).toEqual(NAMES);
  });

  it("a tampered intent record is refused, not applied", async () => {
    const dir = fiveFiles("tampered");
    const stateDir = area.tree("tampered-state");
    await runWorker(dir, "partial5", stateDir);
    const [intent] = pending(stateDir);
    // Point the first file's pre-image at another blob, keeping the record well-formed JSON.
    const text = fs.readFileSync(intent!.p, "utf8");
    fs.writeFileSync(intent!.p, text.replace('"blob":"0"', '"blob":"4"'));
    const log = await restartServer([dir], stateDir);
    expect(versions(dir).versions).toEqual([1, 1, 1, 0, 0]); // untouched
    expect(log).toMatch(/does not match its hash; not applied/);
    const refused = walkAll(stateDir).filter((e) => e.p.endsWith(".refused"));
    expect(refused).toHaveLength(1);
    // Refused once: a later start does not try again.
    expect(await restartServer([dir], stateDir)).not.toMatch(/not applied/);
    expect(versions(dir).versions).toEqual([1, 1, 1, 0, 0]);
  });

  it("a file changed after the crash is left as it is; the others are rolled back", async () => {
    const dir = fiveFiles("changed");
    const stateDir = area.tree("changed-state");
    await runWorker(dir, "partial5", stateDir);
    fs.writeFileSync(path.join(dir, "a.txt"), "the user's own edit\n");
    const log = await restartServer([dir], stateDir);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("the user's own edit\n");
    for (const n of NAMES.slice(1)) expect(fs.readFileSync(path.join(dir, n), "utf8")).toBe(`v0\n${BODY}`);
    expect(log).toMatch(/changed after change .* was interrupted; left as it is/);
    // Its old version stays in the journal (the record is kept aside, not retried).
    const kept = walkAll(stateDir).filter((e) => e.p.endsWith(".kept"));
    expect(kept).toHaveLength(1);
    // intents/<id>.intent.kept names the pre-images <id>.0, ... beside intents/.
    const id = path.basename(kept[0]!.p).replace(/\.intent\.kept$/, "");
    const blob0 = fs.readFileSync(path.join(path.dirname(kept[0]!.p), "..", `${id}.0`), "utf8");
    expect(blob0).toBe(`v0\n${BODY}`);
  });

  it("a read-only root is never rolled back (nor journaled); writable again, it is", async () => {
    const dir = fiveFiles("ro");
    const stateDir = area.tree("ro-state");
    await runWorker(dir, "partial5", stateDir);
    for (const args of [["--read-only", dir], [`--read-only-dir=${dir}`]]) {
      await restartServer(args, stateDir);
      expect(versions(dir).versions).toEqual([1, 1, 1, 0, 0]);
      expect(pending(stateDir)).toHaveLength(1);
    }
    await restartServer([dir], stateDir);
    expect(versions(dir).versions).toEqual([0, 0, 0, 0, 0]);
  });

  it("--no-journal writes nothing to the state directory; without it edit_files journals", async () => {
    for (const journal of [false, true]) {
      const dir = area.tree(`nj-${journal}`, { "x.txt": "one\n", "y.txt": "two\n" });
      const stateDir = path.join(area.base, `nj-${journal}-state`);
      const args = journal ? [dir] : ["--no-journal", dir];
      const c = await startServer(args, { env: { MCPFS_STATE_DIR: stateDir } });
      try {
        const r = await c.call("edit_files", {
          files: [
            { path: path.join(dir, "x.txt"), edits: [{ oldText: "one", newText: "ONE" }] },
            { path: path.join(dir, "y.txt"), edits: [{ oldText: "two", newText: "TWO" }] },
          ],
        });
        expect(r.isError, r.text).toBe(false);
        const p = await c.call("apply_patch", {
          directory: dir,
          patch:
            "--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-ONE\n+1\n--- a/y.txt\n+++ b/y.txt\n@@ -1 +1 @@\n-TWO\n+2\n",
        });
        expect(p.isError, p.text).toBe(false);
      } finally {
        await c.close();
      }
      expect(fs.readFileSync(path.join(dir, "x.txt"), "utf8")).toBe("1\n");
      if (!journal) expect(fs.existsSync(stateDir)).toBe(false);
      else {
        // Both changes recorded, both intents committed (removed).
        const records = walkAll(stateDir)
          .filter((e) => e.p.endsWith(".log"))
          .flatMap((e) => fs.readFileSync(e.p, "utf8").split("\n").filter(Boolean));
        expect(records).toHaveLength(2);
        expect(pending(stateDir)).toEqual([]);
        // Nothing of the journal is inside the root.
        expect(fs.readdirSync(dir).sort()).toEqual(["x.txt", "y.txt"]);
      }
    }
  });
});
