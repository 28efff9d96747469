import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { snapshot, tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection, wordedThrow } from "../../../test/helpers/worded.js";
import { filesystemPolicy } from "../../surfaces/filesystem/policy.js";
import { ToolError } from "../errors.js";
import { sweepStaleTemps } from "../fs/atomic-write.js";
import { sha256Of } from "../fs/hash.js";
import { TEMP_NAME } from "../fs/safe-open.js";
import { fileState } from "../text/file-hash.js";
import { makeRoot, Workspace } from "../workspace.js";
import { ConflictError, checkExpected, conflictWithDiff } from "./precondition.js";
import { ReadBudget, ReadMemory } from "./read-memory.js";
import { readSnapshot } from "./snapshot.js";
import { commitChanges } from "./transaction.js";

const area = tempArea();
afterAll(() => area.cleanup());

let dir: string;
let ws: Workspace;
let n = 0;
beforeEach(async () => {
  dir = area.tree(`t${n++}`, { "a.txt": "alpha\n", "b.txt": "beta\n", "sub/c.txt": "gamma\n" });
  ws = new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
});
const w = (p: string) => ws.resolve(p, { intent: "write" });
const temps = (d: string) => fs.readdirSync(d).filter((f) => TEMP_NAME.test(f));

describe("hash and precondition", () => {
  it("hashes a file by streaming and reports size and mtime", async () => {
    const big = Buffer.alloc(3 * 1024 * 1024 + 7, 0x61);
    fs.writeFileSync(path.join(dir, "big.bin"), big);
    const st = await fileState(await w("big.bin"));
    expect(st).toMatchObject({ sha256: sha256Of(big), size: big.length });
    expect(st!.mtime).toBe(
      new Date(Math.trunc(fs.statSync(path.join(dir, "big.bin")).mtimeMs)).toISOString(),
    );
    expect(await fileState(await w("missing.txt"))).toBeUndefined();
  });

  it("accepts the full hash, a prefix of 8+ digits, upper case and a sha256: prefix", () => {
    const h = sha256Of("x");
    const current = { sha256: h, size: 1, mtime: new Date(0).toISOString() };
    const check = (expected: string) => checkExpected({ requested: "p", expected, current });
    expect(() => check(`sha256:${h.toUpperCase()}`)).not.toThrow();
    expect(() => check(h.slice(0, 8))).not.toThrow();
    expect(() => check(sha256Of("y").slice(0, 8))).toThrow(/changed since it was read/);
    expect(wordedThrow(() => check("abc"))).toMatch(/^Invalid expected hash for p: .*at least the first 8/);
    expect(() => check("zz".repeat(10))).toThrow(ToolError);
  });

  it("refuses a changed file with hash, size, mtime and a short diff of what changed", () => {
    const current = { sha256: sha256Of("one\nTWO\nthree\n"), size: 14, mtime: "2026-01-01T00:00:00.000Z" };
    let msg = "";
    try {
      checkExpected({
        requested: "f.txt",
        expected: sha256Of("one\ntwo\nthree\n"),
        current,
        basedOn: "one\ntwo\nthree\n",
        currentText: "one\nTWO\nthree\n",
      });
    } catch (err) {
      msg = (err as Error).message;
      expect((err as ToolError).kind).toBe("conflict");
    }
    expect(msg).toContain("Refused: f.txt changed since it was read");
    expect(msg).toContain(current.sha256.slice(0, 12));
    expect(msg).toContain("14 bytes, modified 2026-01-01T00:00:00.000Z");
    expect(msg).toContain("-two");
    expect(msg).toContain("+TWO");
    expect(() => checkExpected({ requested: "f.txt", expected: current.sha256, current })).not.toThrow();
    expect(() =>
      checkExpected({ requested: "gone.txt", expected: current.sha256, current: undefined }),
    ).toThrow(/gone.txt no longer exists/);
  });
});

describe("ReadMemory and the refusal's diff", () => {
  it("recalls a text by hash or 8+ digit prefix, forgetting the oldest beyond its bounds", () => {
    const m = new ReadMemory({ maxEntries: 3, maxChars: 100, maxTextChars: 50 });
    for (const t of ["a\n", "b\n", "c\n", "d\n"]) m.remember(sha256Of(t), t);
    expect(m.recall(sha256Of("a\n"))).toBeUndefined();
    expect(m.recall(sha256Of("d\n").slice(0, 8))).toBe("d\n");
    m.remember(sha256Of("x".repeat(51)), "x".repeat(51));
    expect(m.recall(sha256Of("x".repeat(51)))).toBeUndefined();
    const big = "y".repeat(49);
    m.remember(sha256Of(big), big);
    m.remember(sha256Of(`${big}z`), `${big}z`);
    // 100 characters at most: the two big texts fit only without the small ones.
    expect(m.recall(sha256Of("d\n"))).toBeUndefined();
    expect(m.recall(sha256Of(big))).toBe(big);
  });

  it("shares one budget between connections, evicting its own oldest first and giving back on clear", () => {
    const budget = new ReadBudget(100);
    const a = new ReadMemory({ maxEntries: 10, maxChars: 1000, maxTextChars: 1000, budget });
    const b = new ReadMemory({ maxEntries: 10, maxChars: 1000, maxTextChars: 1000, budget });
    const t = (c: string) => c.repeat(40);
    a.remember(sha256Of(t("a")), t("a"));
    a.remember(sha256Of(t("b")), t("b"));
    expect(budget.used).toBe(80);
    // b has nothing of its own to evict: the read is not remembered, a keeps its texts.
    b.remember(sha256Of(t("c")), t("c"));
    expect(b.recall(sha256Of(t("c")))).toBeUndefined();
    expect(a.recall(sha256Of(t("a")))).toBe(t("a"));
    // a evicts its own oldest to make room.
    a.remember(sha256Of(t("d")), t("d"));
    expect(a.recall(sha256Of(t("a")))).toBeUndefined();
    expect(a.recall(sha256Of(t("d")))).toBe(t("d"));
    expect(budget.used).toBe(80);
    a.clear();
    expect(budget.used).toBe(0);
    b.remember(sha256Of(t("c")), t("c"));
    expect(b.recall(sha256Of(t("c")))).toBe(t("c"));
    expect(budget.used).toBe(40);
  });

  it("words a refusal with a short diff from the text read to the current one, CRLF and BOM aside", () => {
    const current = { sha256: sha256Of("one\r\nTWO\r\n"), size: 10, mtime: "2026-01-01T00:00:00.000Z" };
    let err: unknown;
    try {
      checkExpected({
        requested: "f.txt",
        expected: sha256Of("x"),
        current: { ...current, data: Buffer.from("\uFEFFone\r\nTWO\r\n") },
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConflictError);
    const msg = conflictWithDiff(err as ConflictError, "one\ntwo\n");
    expect(msg).toContain("What changed since your read:\n--- f.txt (as read)\n+++ f.txt (now)");
    expect(msg).toContain(" one\n-two\n+TWO");
    expect(msg).not.toContain("\r");
    // Binary current content: no diff, the plain refusal.
    try {
      checkExpected({
        requested: "b",
        expected: sha256Of("x"),
        current: { ...current, data: Buffer.from([0, 1]) },
      });
    } catch (e) {
      expect(conflictWithDiff(e as ConflictError, "old")).toBe((e as Error).message);
    }
  });
});

describe("commitChanges", () => {
  it("writes, creates and deletes several files together, keeping mode bits, leaving no temp", async () => {
    fs.chmodSync(path.join(dir, "a.txt"), 0o751);
    const a = await w("a.txt");
    const snapA = await readSnapshot(a);
    const snapB = await readSnapshot(await w("b.txt"));
    const res = await commitChanges([
      { kind: "write", target: a, data: "ALPHA\n", base: snapA },
      { kind: "write", target: await w("new/deep/n.txt"), data: "new\n", base: null, createParents: true },
      { kind: "delete", target: await w("b.txt"), base: snapB },
    ]);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("ALPHA\n");
    expect(fs.statSync(path.join(dir, "a.txt")).mode & 0o777).toBe(0o751);
    expect(fs.readFileSync(path.join(dir, "new/deep/n.txt"), "utf8")).toBe("new\n");
    expect(fs.existsSync(path.join(dir, "b.txt"))).toBe(false);
    expect(res.map((r) => r.kind)).toEqual(["write", "create", "delete"]);
    expect(res[0]).toMatchObject({ before: sha256Of("alpha\n"), after: sha256Of("ALPHA\n"), bytes: 6 });
    expect(temps(dir)).toEqual([]);
    expect(temps(path.join(dir, "new/deep"))).toEqual([]);
  });

  it("changes nothing when a later change fails (file created meanwhile), removing created dirs", async () => {
    const before = snapshot(dir);
    const a = await w("a.txt");
    const snapA = await readSnapshot(a);
    const target = await w("sub/c.txt");
    expect(
      await wordedRejection(
        commitChanges([
          { kind: "write", target: a, data: "changed\n", base: snapA },
          { kind: "write", target: await w("x/y/z.txt"), data: "z", base: null, createParents: true },
          { kind: "write", target, data: "must-not-exist", base: null },
        ]),
      ),
    ).toMatch(/Already exists/);
    expect(snapshot(dir)).toEqual(before);
  });

  it("rolls back files already renamed in when the commit of a later one finds a conflict", async () => {
    const a = await w("a.txt");
    const c = await w("sub/c.txt");
    const snapA = await readSnapshot(a);
    const snapC = await readSnapshot(c);
    const inoA = fs.statSync(path.join(dir, "a.txt")).ino;
    // The second file is changed by someone else after it was read: detected at stage or commit time.
    fs.writeFileSync(path.join(dir, "sub/c.txt"), "gamma changed by someone else\n");
    const before = snapshot(dir);
    const err = await commitChanges([
      { kind: "write", target: a, data: "A2\n", base: snapA },
      { kind: "write", target: c, data: "C2\n", base: snapC },
    ]).catch((e) => e as ToolError);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).kind).toBe("conflict");
    expect((err as Error).message).toContain("sub/c.txt changed since it was read");
    expect((err as Error).message).toContain("+gamma changed by someone else");
    expect(snapshot(dir)).toEqual(before);
    // The original inode is back (content, mode and owner exactly as before).
    expect(fs.statSync(path.join(dir, "a.txt")).ino).toBe(inoA);
    expect(temps(dir)).toEqual([]);
    expect(temps(path.join(dir, "sub"))).toEqual([]);
  });

  it("rolls back committed files when a later file changes between staging and its commit", async () => {
    const a = await w("a.txt");
    const b = await w("b.txt");
    const c = await w("sub/c.txt");
    fs.chmodSync(path.join(dir, "a.txt"), 0o640);
    const inoA = fs.statSync(path.join(dir, "a.txt")).ino;
    const snaps = [await readSnapshot(a), await readSnapshot(b), await readSnapshot(c)];
    let before = new Map<string, string>();
    const err = await commitChanges(
      [
        { kind: "write", target: a, data: "A2\n", base: snaps[0] },
        { kind: "delete", target: b, base: snaps[1] },
        { kind: "write", target: await w("fresh.txt"), data: "F\n", base: null },
        { kind: "write", target: c, data: "C2\n", base: snaps[2] },
      ],
      {
        beforeCommit(i) {
          if (i !== 3) return;
          // a, b and fresh are committed; now someone else edits c in place.
          fs.appendFileSync(path.join(dir, "sub/c.txt"), "appended by someone else\n");
          before = snapshot(dir);
        },
      },
    ).catch((e) => e as ToolError);
    expect((err as ToolError).kind).toBe("conflict");
    expect((err as Error).message).toContain("+appended by someone else");
    const after = snapshot(dir);
    expect(after.get(path.join(dir, "a.txt"))).toBe("alpha\n");
    expect(after.get(path.join(dir, "b.txt"))).toBe("beta\n");
    expect(after.has(path.join(dir, "fresh.txt"))).toBe(false);
    expect(after.get(path.join(dir, "sub/c.txt"))).toBe("gamma\nappended by someone else\n");
    expect(before.get(path.join(dir, "a.txt"))).toBe("A2\n");
    expect(fs.statSync(path.join(dir, "a.txt")).ino).toBe(inoA);
    expect(fs.statSync(path.join(dir, "a.txt")).mode & 0o777).toBe(0o640);
    expect(temps(dir)).toEqual([]);
    expect(temps(path.join(dir, "sub"))).toEqual([]);
  });

  it("accepts a file whose metadata moved but whose content is the one read (touch)", async () => {
    const a = await w("a.txt");
    const snapA = await readSnapshot(a);
    fs.utimesSync(path.join(dir, "a.txt"), new Date(2000, 1, 1), new Date(2000, 1, 1));
    await commitChanges([{ kind: "write", target: a, data: "ok\n", base: snapA }]);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("ok\n");
  });

  it("refuses a change whose base was deleted, and a duplicate target", async () => {
    const a = await w("a.txt");
    const snapA = await readSnapshot(a);
    fs.unlinkSync(path.join(dir, "a.txt"));
    expect(
      await wordedRejection(commitChanges([{ kind: "write", target: a, data: "x", base: snapA }])),
    ).toMatch(/no longer exists/);
    const b = await w("b.txt");
    expect(
      await wordedRejection(
        commitChanges([
          { kind: "write", target: b, data: "1" },
          { kind: "write", target: b, data: "2" },
        ]),
      ),
    ).toMatch(/appears twice/);
    expect(fs.existsSync(path.join(dir, "a.txt"))).toBe(false);
  });

  it("replaces a symlink's target file inside the root, never the link, and never a target outside", async () => {
    const outside = area.tree(`outside${n}`, { "secret.txt": "secret\n" });
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "out-link"));
    expect(await wordedRejection(w("out-link"))).toMatch(/Access denied/);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    fs.symlinkSync("a.txt", path.join(dir, "in-link"));
    const t = await w("in-link");
    await commitChanges([{ kind: "write", target: t, data: "via link\n", base: await readSnapshot(t) }]);
    expect(fs.lstatSync(path.join(dir, "in-link")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("via link\n");
  });
});

describe("sweepStaleTemps", () => {
  it("removes only old hidden temp files, not young ones, directories or look-alikes", async () => {
    const old = path.join(dir, ".mcpfs-0123456789abcdef.tmp");
    const young = path.join(dir, ".mcpfs-fedcba9876543210.tmp");
    fs.writeFileSync(old, "old");
    fs.writeFileSync(young, "young");
    fs.writeFileSync(path.join(dir, ".mcpfs-notatemp.tmp"), "keep");
    fs.mkdirSync(path.join(dir, ".mcpfs-aaaaaaaaaaaaaaaa.tmp"));
    const later = Date.now() + 20 * 60 * 1000;
    // "Now" is 20 minutes later for the old file only: pass a threshold that separates the two.
    expect(await sweepStaleTemps(dir, 60_000, Date.now())).toBe(0);
    expect(await sweepStaleTemps(dir, 60_000, later)).toBe(2);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(young)).toBe(false);
    expect(fs.existsSync(path.join(dir, ".mcpfs-notatemp.tmp"))).toBe(true);
    expect(fs.existsSync(path.join(dir, ".mcpfs-aaaaaaaaaaaaaaaa.tmp"))).toBe(true);
  });
});
