/**
 * Black-box: the undo journal on both surfaces. Every mutating tool followed by undo_change gives back a
 * byte-identical tree (names, bytes, modes, links of the whole root); an undo of the undo gives back the
 * change; a path changed since is refused with a diff (force undoes anyway); the caps drop the oldest;
 * --no-journal; read-only roots; the journal out of reach of every tool; a tampered record is refused.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotWithModes, tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());
const POSIX = process.platform !== "win32";

/** A root with files of several modes, a nested tree and links (relative and dangling). */
function seed(root: string): void {
  const put = (rel: string, text: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
    fs.chmodSync(path.join(root, rel), mode);
  };
  put("a.txt", "alpha\nbeta\ngamma\n");
  put("run.sh", "#!/bin/sh\necho hi\n", 0o750);
  put("sub/b.txt", "one\ntwo\n", 0o600);
  put("tree/x.txt", "x\n");
  put("tree/deep/y.txt", "y\r\nwith crlf\r\n");
  put("tree/deep/z.bin", "\u0000\u0001binary");
  fs.symlinkSync("x.txt", path.join(root, "tree/link-to-x"));
  fs.symlinkSync("../nowhere", path.join(root, "tree/dangling"));
  fs.mkdirSync(path.join(root, "empty"));
}

/** The change id a mutating tool's reply names (structured when it has structured content, else text). */
function changeIdOf(r: TextResult): string {
  const m = /^Change ([0-9a-z]{9}-[0-9a-f]{12})/.exec(r.change ?? "");
  expect(m, r.text).not.toBeNull();
  if (r.structured && "content" in r.structured) expect(r.structured.changeId).toBe(m![1]);
  return m![1]!;
}

/** The test switches that make the journal copy what it would link or rename (another device, no links). */
const COPIES = { MCPFS_FORCE_JOURNAL_COPY: "1", MCPFS_FORCE_NO_HARDLINKS: "1" };

describe.each([
  ["v1", "v1", {}],
  ["v2", "v2", {}],
  ["v1-copies", "v1", COPIES],
] as const)("filesystem surface, %s", (name, client, extraEnv) => {
  const root = area.tree(`fs-${name}`, {});
  const state = path.join(area.base, `state-fs-${name}`);
  let conn: Connection;
  const p = (rel: string) => path.join(root, rel);
  beforeAll(async () => {
    seed(root);
    conn = await startServer([root], { client, env: { MCPFS_STATE_DIR: state, ...extraEnv } });
  });
  afterAll(() => conn.close());

  const cases: [string, () => Record<string, unknown>][] = [
    ["write_file", () => ({ path: p("sub/n.txt"), content: "new\n" })],
    ["write_file", () => ({ path: p("run.sh"), content: "replaced\n" })],
    ["edit_file", () => ({ path: p("a.txt"), edits: [{ oldText: "beta", newText: "BETA" }] })],
    [
      "edit_files",
      () => ({
        files: [
          { path: p("a.txt"), edits: [{ oldText: "alpha", newText: "ALPHA" }] },
          { path: p("sub/b.txt"), edits: [{ oldText: "two", newText: "TWO" }] },
        ],
      }),
    ],
    [
      "apply_patch",
      () => ({
        directory: root,
        patch:
          "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+patched\n gamma\n--- /dev/null\n+++ b/made.txt\n@@ -0,0 +1 @@\n+made\n--- a/sub/b.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n",
      }),
    ],
    ["append_file", () => ({ path: p("sub/b.txt"), content: "three\n" })],
    ["move_file", () => ({ source: p("a.txt"), destination: p("sub/a-moved.txt") })],
    ["move_file", () => ({ source: p("tree"), destination: p("sub/tree-moved") })],
    ["copy_file", () => ({ source: p("a.txt"), destination: p("run.sh"), overwrite: true })],
    ["copy_file", () => ({ source: p("tree"), destination: p("tree-copy") })],
    ["copy_file", () => ({ source: p("tree"), destination: p("sub"), overwrite: true })],
    ["delete_file", () => ({ path: p("run.sh") })],
    ["delete_file", () => ({ path: p("tree/link-to-x") })],
    ["delete_directory", () => ({ path: p("tree"), recursive: true })],
    ["delete_directory", () => ({ path: p("empty") })],
    ["create_directory", () => ({ path: p("made/a/b") })],
  ];

  it.each(cases)(
    "%s, then undo_change: the whole root is byte-identical; undo of the undo redoes it",
    async (tool, args) => {
      const before = snapshotWithModes(root);
      const r = await conn.call(tool, args());
      expect(r.isError, r.text).toBe(false);
      const id = changeIdOf(r);
      const after = snapshotWithModes(root);
      expect(after).not.toEqual(before);
      // Pre-images are the old inodes (linked) unless copies are forced: then no journal file shares one.
      if (name === "v1-copies" && POSIX)
        for (const f of journalFiles(state)) expect(fs.statSync(f).nlink, f).toBe(1);
      const u = await conn.call("undo_change", { id });
      expect(u.isError, u.text).toBe(false);
      expect(snapshotWithModes(root)).toEqual(before);
      const redo = await conn.call("undo_change", { id: changeIdOf(u) });
      expect(redo.isError, redo.text).toBe(false);
      expect(snapshotWithModes(root)).toEqual(after);
      // Back to the seed for the next case (undo of the redo).
      const back = await conn.call("undo_change", { id: changeIdOf(redo) });
      expect(back.isError, back.text).toBe(false);
      expect(snapshotWithModes(root)).toEqual(before);
    },
  );

  it("concurrent calls keep their changes apart: each lists only its own paths and undoes only them", async () => {
    const names = ["c0", "c1", "c2", "c3", "c4", "c5"];
    for (const n of names) fs.writeFileSync(p(`${n}.txt`), `${n} old\n`);
    const before = snapshotWithModes(root);
    // Sent at once: the calls' awaits interleave in the server; a copy of a tree and a mkdir run among them.
    const replies = await Promise.all([
      ...names.map((n) => conn.call("write_file", { path: p(`${n}.txt`), content: `${n} new\n` })),
      conn.call("copy_file", { source: p("sub"), destination: p("sub-copy") }),
      conn.call("create_directory", { path: p("made-at-once/x") }),
    ]);
    for (const r of replies) expect(r.isError, r.text).toBe(false);
    const ids = replies.map(changeIdOf);
    const l = await conn.call("list_changes", { limit: ids.length });
    const listed = new Map(
      (l.structured!.changes as { id: string; paths: string[] }[]).map((c) => [c.id, c.paths]),
    );
    for (const [i, n] of names.entries()) expect(listed.get(ids[i]!), n).toEqual([p(`${n}.txt`)]);
    expect(listed.get(ids[names.length]!)).toEqual([p("sub-copy")]);
    expect(listed.get(ids[names.length + 1]!)).toEqual([p("made-at-once"), p("made-at-once/x")]);
    // Undoing one write gives back that file alone.
    const u = await conn.call("undo_change", { id: ids[2]! });
    expect(u.isError, u.text).toBe(false);
    expect(fs.readFileSync(p("c2.txt"), "utf8")).toBe("c2 old\n");
    expect(fs.readFileSync(p("c3.txt"), "utf8")).toBe("c3 new\n");
    // The rest back, newest first: the root is as before.
    for (const id of [...ids].reverse().filter((x) => x !== ids[2])) {
      const r = await conn.call("undo_change", { id });
      expect(r.isError, r.text).toBe(false);
    }
    expect(snapshotWithModes(root)).toEqual(before);
  });

  it("list_changes shows the newest first, filtered by path, with ids the replies named", async () => {
    const w = await conn.call("write_file", { path: p("listed.txt"), content: "listed\n" });
    const id = changeIdOf(w);
    const l = await conn.call("list_changes", { limit: 3 });
    expect(l.isError, l.text).toBe(false);
    const changes = l.structured!.changes as {
      id: string;
      tool: string;
      paths: string[];
      undoable: boolean;
    }[];
    expect(changes.length).toBe(3);
    expect(changes[0]).toMatchObject({ id, tool: "write_file", paths: [p("listed.txt")], undoable: true });
    expect(changes[1]!.id < changes[0]!.id).toBe(true);
    const only = await conn.call("list_changes", { path: p("listed.txt") });
    expect((only.structured!.changes as unknown[]).length).toBe(1);
    await conn.call("undo_change", { id });
    const again = await conn.call("undo_change", { id });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/already undone/);
  });

  it("refuses with a diff when the file changed since; dryRun shows it; force undoes anyway (and is undoable)", async () => {
    const w = await conn.call("write_file", { path: p("conflict.txt"), content: "first\n" });
    const w2 = await conn.call("write_file", { path: p("conflict.txt"), content: "second\n" });
    const id = changeIdOf(w2);
    fs.writeFileSync(p("conflict.txt"), "edited by hand\n");
    const dry = await conn.call("undo_change", { id, dryRun: true });
    expect(dry.isError, dry.text).toBe(false);
    expect(dry.structured).toMatchObject({ applied: false, conflicts: 1 });
    const refused = await conn.call("undo_change", { id });
    expect(refused.isError).toBe(true);
    // Worded once (surfaces/wording.ts) from the refusal's data: its steps, paths as this surface shows them.
    expect(
      refused.text.startsWith(`Refused: 1 path(s) changed since change ${id}; nothing was undone:\n`),
    ).toBe(true);
    expect(refused.text).toContain(`\n- ${p("conflict.txt")}: `);
    expect(refused.text).toMatch(/\nPass force: true to undo anyway \(/);
    expect(refused.text).toContain("-edited by hand");
    expect(refused.text).toContain("+first");
    expect(fs.readFileSync(p("conflict.txt"), "utf8")).toBe("edited by hand\n");
    const forced = await conn.call("undo_change", { id, force: true });
    expect(forced.isError, forced.text).toBe(false);
    expect(fs.readFileSync(p("conflict.txt"), "utf8")).toBe("first\n");
    // The hand edit is not lost: undoing the forced undo brings it back.
    await conn.call("undo_change", { id: changeIdOf(forced) });
    expect(fs.readFileSync(p("conflict.txt"), "utf8")).toBe("edited by hand\n");
    await conn.call("undo_change", { id: changeIdOf(w), force: true });
  });

  it("the journal is outside the root, owner-only, and no tool reaches it", async () => {
    const w = await conn.call("write_file", { path: p("perm.txt"), content: "x" });
    await conn.call("write_file", { path: p("perm.txt"), content: "y" });
    changeIdOf(w);
    const dirs: string[] = [];
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const q = path.join(d, e.name);
        if (e.isDirectory()) {
          dirs.push(q);
          walk(q);
        } else if (e.isFile()) files.push(q);
      }
    };
    walk(state);
    expect(files.length).toBeGreaterThan(0);
    if (POSIX) {
      const journalDirs = dirs.filter((d) => /(journal|[0-9a-f]{32})$/.test(d));
      expect(journalDirs.length).toBe(2);
      for (const d of journalDirs) expect((fs.statSync(d).mode & 0o777).toString(8), d).toBe("700");
      // Record segments, and pre-images the journal holds the only link of, are owner-only.
      const segments = files.filter((f) => f.endsWith(".log"));
      expect(segments.length).toBeGreaterThan(0);
      for (const f of journalFiles(state).filter((f) => f.endsWith(".log") || fs.statSync(f).nlink === 1))
        expect((fs.statSync(f).mode & 0o777).toString(8), f).toBe("600");
    }
    for (const f of [state, files[0]!]) {
      const r = await conn.call("read_text_file", { path: f });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/denied|outside/i);
    }
  });

  it("a tampered record is refused, not applied", async () => {
    const w = await conn.call("write_file", { path: p("tamper.txt"), content: "one\n" });
    await conn.call("write_file", { path: p("tamper.txt"), content: "two\n" });
    const id = changeIdOf(w);
    // Its line in the record segment, edited (the other changes' lines stay as they were).
    const segment = findRecord(state, id);
    const lines = fs.readFileSync(segment, "utf8").split("\n");
    const i = lines.findIndex((l) => l.includes(`"id":"${id}"`));
    lines[i] = lines[i]!.replace('"tool":"write_file"', '"tool":"edit_file"');
    fs.writeFileSync(segment, lines.join("\n"));
    const r = await conn.call("undo_change", { id });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/does not match/);
    expect(fs.readFileSync(p("tamper.txt"), "utf8")).toBe("two\n");
  });
});

/** The files of every change in the journal (record segments, pre-images, undone marks; not `root`). */
function journalFiles(state: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const q = path.join(d, e.name);
      if (e.isDirectory()) walk(q);
      else if (e.isFile() && /^[0-9a-z]{9}-[0-9a-f]{12}\./.test(e.name)) out.push(q);
    }
  };
  walk(path.join(state, "journal"));
  return out;
}

/** The record segment that holds the record of change `id`. */
function findRecord(state: string, id: string): string {
  const found = journalFiles(state).find(
    (f) => f.endsWith(".log") && fs.readFileSync(f, "utf8").includes(`"id":"${id}"`),
  );
  if (!found) throw new Error(`no record of ${id}`);
  return found;
}

describe("workspace surface", () => {
  const root = area.tree("ws", {});
  const state = path.join(area.base, "state-ws");
  let conn: Connection;
  beforeAll(async () => {
    seed(root);
    conn = await startServer(["--project-dir", root, "--console-only"], { env: { MCPFS_STATE_DIR: state } });
  });
  afterAll(() => conn.close());

  const cases: [string, Record<string, unknown>][] = [
    ["save_file", { file_path: "new/dir/n.txt", content: "new\n" }],
    ["save_file", { file_path: "run.sh", content: "replaced\n" }],
    ["append_file", { file_path: "sub/b.txt", content: "three\n" }],
    ["edit_file", { file_path: "a.txt", old_string: "beta", new_string: "BETA" }],
    ["delete_this_file", { file_path: "sub/b.txt" }],
    ["delete_directory", { dir_path: "tree", recursive: true }],
    ["move_file", { source_path: "tree", destination_path: "moved/tree" }],
  ];

  it.each(cases)("%s, then undo_change: byte-identical; undo of the undo redoes it", async (tool, args) => {
    const before = snapshotWithModes(root);
    const r = await conn.call(tool, args);
    expect(r.isError, r.text).toBe(false);
    const id = changeIdOf(r);
    const after = snapshotWithModes(root);
    const u = await conn.call("undo_change", { id });
    expect(u.isError, u.text).toBe(false);
    expect(snapshotWithModes(root)).toEqual(before);
    const redo = await conn.call("undo_change", { id: changeIdOf(u) });
    expect(redo.isError, redo.text).toBe(false);
    expect(snapshotWithModes(root)).toEqual(after);
    await conn.call("undo_change", { id: changeIdOf(redo) });
    expect(snapshotWithModes(root)).toEqual(before);
  });

  it("list_changes and undo_change take snake_case parameters; a changed file is refused", async () => {
    const w = await conn.call("save_file", { file_path: "ws.txt", content: "v1\n" });
    const id = changeIdOf(w);
    const l = await conn.call("list_changes", { path: "ws.txt" });
    expect(l.text).toContain(id);
    expect(l.text).toContain("ws.txt");
    fs.writeFileSync(path.join(root, "ws.txt"), "by hand\n");
    const dry = await conn.call("undo_change", { id, dry_run: true });
    expect(dry.isError, dry.text).toBe(false);
    expect(dry.text).toMatch(/Dry run/);
    const refused = await conn.call("undo_change", { id });
    expect(refused.isError).toBe(true);
    expect(fs.readFileSync(path.join(root, "ws.txt"), "utf8")).toBe("by hand\n");
    const forced = await conn.call("undo_change", { id, force: true });
    expect(forced.isError, forced.text).toBe(false);
    expect(fs.existsSync(path.join(root, "ws.txt"))).toBe(false);
  });
});

describe("a root's first changes", () => {
  it("several at once into a journal not made yet all succeed, each its own change", async () => {
    const root = area.tree("first", { "x.txt": "x\n", "y.txt": "y\n", "z.txt": "z\n" });
    const conn = await startServer([root], { env: { MCPFS_STATE_DIR: path.join(area.base, "state-first") } });
    try {
      const f = (n: string) => path.join(root, n);
      const replies = await Promise.all(
        ["x.txt", "y.txt", "z.txt"].map((n) =>
          conn.call("write_file", { path: f(n), content: `${n} new\n` }),
        ),
      );
      // They were refused ("Already exists": two calls made the journal's first file at once).
      for (const r of replies) expect(r.isError, r.text).toBe(false);
      expect(new Set(replies.map(changeIdOf)).size).toBe(3);
      for (const n of ["x.txt", "y.txt", "z.txt"]) expect(fs.readFileSync(f(n), "utf8")).toBe(`${n} new\n`);
    } finally {
      await conn.close();
    }
  });

  it("edit_files at once into a journal not made yet all succeed", async () => {
    const names = ["a", "b", "c", "d"].map((n) => `${n}.txt`);
    const root = area.tree("first-multi", Object.fromEntries(names.map((n) => [n, "old\n"])));
    const conn = await startServer([root], {
      env: { MCPFS_STATE_DIR: path.join(area.base, "state-first-multi") },
    });
    try {
      const replies = await Promise.all(
        names.map((n) =>
          conn.call("edit_files", {
            files: [{ path: path.join(root, n), edits: [{ oldText: "old", newText: "new" }] }],
          }),
        ),
      );
      for (const r of replies) expect(r.isError, r.text).toBe(false);
      for (const n of names) expect(fs.readFileSync(path.join(root, n), "utf8")).toBe("new\n");
    } finally {
      await conn.close();
    }
  });
});

describe("caps, --no-journal, read-only roots", () => {
  it("the size cap drops the oldest change; a change larger than the cap is applied but not undoable", async () => {
    const root = area.tree("caps", {});
    const conn = await startServer([root, "--journal-max-bytes", "2500", "--journal-min-age", "0"], {
      env: { MCPFS_STATE_DIR: path.join(area.base, "state-caps") },
    });
    try {
      const f = path.join(root, "f.txt");
      const ids: string[] = [];
      for (const c of ["a", "b", "c", "d"]) {
        const r = await conn.call("write_file", { path: f, content: c.repeat(1000) });
        ids.push(changeIdOf(r));
      }
      // Each overwrite keeps 1000 bytes: the cap holds two, so the oldest (the create keeps none) go first.
      const listed = (await conn.call("list_changes", {})).structured!.changes as { id: string }[];
      expect(listed.map((c) => c.id)).toEqual([ids[3], ids[2], ids[1], ids[0]].slice(0, listed.length));
      expect(listed.map((c) => c.id)).not.toContain(ids[1]);
      const gone = await conn.call("undo_change", { id: ids[1]! });
      expect(gone.isError).toBe(true);
      await conn.call("write_file", { path: f, content: "e".repeat(3000) });
      const big = await conn.call("write_file", { path: f, content: "f" });
      expect(big.isError).toBe(false);
      expect(big.change).toMatch(/not undoable/);
      expect(big.structured).toMatchObject({ undoable: false });
      expect(fs.readFileSync(f, "utf8")).toBe("f");
      const refused = await conn.call("undo_change", { id: changeIdOf(big) });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/not undoable/);
    } finally {
      await conn.close();
    }
  });

  it("--no-journal: mutating replies name no change, the tools answer that the journal is off", async () => {
    const root = area.tree("nojournal", {});
    const conn = await startServer([root, "--no-journal"]);
    try {
      const w = await conn.call("write_file", { path: path.join(root, "n.txt"), content: "n" });
      expect(w.isError).toBe(false);
      expect(w.change).toBeUndefined();
      expect(w.structured).not.toHaveProperty("changeId");
      for (const [tool, args] of [
        ["list_changes", {}],
        ["undo_change", { id: "000000000-000000000000" }],
      ] as const) {
        const r = await conn.call(tool, args);
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/journal is off/);
      }
    } finally {
      await conn.close();
    }
  });

  it("a state directory inside an allowed directory turns the journal off (no tool could reach it otherwise)", async () => {
    const root = area.tree("state-inside", {});
    const state = path.join(root, "home", ".local", "state", "mcpfs");
    const conn = await startServer([root], { env: { MCPFS_STATE_DIR: state } });
    try {
      const w = await conn.call("write_file", { path: path.join(root, "n.txt"), content: "n" });
      expect(w.isError).toBe(false);
      expect(w.change).toBeUndefined();
      expect((await conn.call("list_changes", {})).text).toMatch(/journal is off/);
      expect(fs.existsSync(path.join(root, "home"))).toBe(false);
      expect(conn.stderr()).toMatch(/inside the allowed directory/);
    } finally {
      await conn.close();
    }
  });

  it("a change made while a root was writable is not undone once it is served read-only", async () => {
    const root = area.tree("ro", { "r.txt": "old\n" });
    const state = path.join(area.base, "state-ro");
    const rw = await startServer([root], { env: { MCPFS_STATE_DIR: state } });
    const w = await rw.call("write_file", { path: path.join(root, "r.txt"), content: "new\n" });
    const id = changeIdOf(w);
    await rw.close();
    const ro = await startServer(["--read-only-dir", root], { env: { MCPFS_STATE_DIR: state } });
    try {
      const before = snapshotWithModes(root);
      const l = await ro.call("list_changes", {});
      expect(l.text).not.toContain(id);
      const u = await ro.call("undo_change", { id });
      expect(u.isError).toBe(true);
      expect(snapshotWithModes(root)).toEqual(before);
    } finally {
      await ro.close();
    }
  });
});

describe("what a change costs the journal", () => {
  it("an overwrite adds one hard link of the replaced inode and one appended record line: no new file", async () => {
    const root = area.tree("cost", { "f.txt": "v0\n" });
    const state = path.join(area.base, "state-cost");
    const conn = await startServer([root], { env: { MCPFS_STATE_DIR: state } });
    try {
      const f = path.join(root, "f.txt");
      const replaced: number[] = [];
      const ids: string[] = [];
      for (let i = 1; i <= 20; i++) {
        replaced.push(fs.statSync(f).ino);
        ids.push(changeIdOf(await conn.call("write_file", { path: f, content: `v${i}\n` })));
      }
      const [dir] = fs.readdirSync(path.join(state, "journal"));
      const journal = path.join(state, "journal", dir!);
      const names = fs.readdirSync(journal).sort();
      const segments = names.filter((n) => n.endsWith(".log"));
      // One segment (made once per process), the root's `root` file, and per change its pre-image only.
      expect(segments).toHaveLength(1);
      expect(names.filter((n) => !segments.includes(n)).sort()).toEqual(
        ["root", ...ids.map((id) => `${id}.0`)].sort(),
      );
      // Each pre-image is the replaced file's own inode, not a copy.
      expect(ids.map((id) => fs.statSync(path.join(journal, `${id}.0`)).ino)).toEqual(replaced);
      const lines = fs.readFileSync(path.join(journal, segments[0]!), "utf8").trimEnd().split("\n");
      expect(lines.map((l) => /"id":"([^"]+)"/.exec(l)?.[1])).toEqual(ids);
      // Still undoable, the oldest first as well as the newest.
      const u = await conn.call("undo_change", { id: ids[0]!, force: true });
      expect(u.isError, u.text).toBe(false);
      expect(fs.readFileSync(f, "utf8")).toBe("v0\n");
    } finally {
      await conn.close();
    }
  });
});
