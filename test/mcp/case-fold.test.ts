/**
 * The case-folding name policy, forced on this (case-sensitive) volume so its logic is tested on every host:
 * each access decision folds case, while I/O uses the names on disk. The black-box side runs on Windows
 * (scripts/test-windows.mjs) and here through the CLI's test switch.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isGitIgnored } from "../../src/core/ignore.js";
import { moveEntry } from "../../src/core/mutate/move.js";
import { moveNoReplace } from "../../src/core/mutate/move-no-replace.js";
import { EXACT_NAMES, FOLDED_NAMES, screenRequestedPath } from "../../src/core/paths.js";
import { walk } from "../../src/core/walk.js";
import { makeRoot, namesOf, type Root, Workspace } from "../../src/core/workspace.js";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/in-process.js";
import { wordedRejection, wordedThrow } from "../helpers/worded.js";

const area = tempArea();
afterAll(() => area.cleanup());
let n = 0;

async function folded(dir: string, mode: "rw" | "ro" = "rw"): Promise<Root> {
  return makeRoot(dir, mode, "directory", { overrides: { foldCase: true } });
}

function upper(p: string): string {
  // Flip the case of the last segment only: the test area's parents are on a case-sensitive volume.
  return path.join(path.dirname(p), path.basename(p).toUpperCase());
}

describe("name policies", () => {
  it("folded: whole segments compared without case; exact: byte for byte", () => {
    expect(FOLDED_NAMES.isAtOrBelow("/tmp/Abc/x", "/tmp/abc")).toBe(true);
    expect(FOLDED_NAMES.isAtOrBelow("/tmp/ABC", "/tmp/abc")).toBe(true);
    expect(FOLDED_NAMES.isAtOrBelow("/tmp/abcd", "/tmp/abc")).toBe(false);
    expect(FOLDED_NAMES.equal(".GIT", ".git")).toBe(true);
    expect(EXACT_NAMES.isAtOrBelow("/tmp/Abc/x", "/tmp/abc")).toBe(false);
    expect(EXACT_NAMES.equal(".GIT", ".git")).toBe(false);
  });

  it("the probe finds this volume case-sensitive (it looks at the disk, not the platform)", async () => {
    const dir = area.tree(`probe${n++}`, { "Some.txt": "x" });
    const empty = area.tree(`probe${n++}`);
    expect(namesOf(await makeRoot(dir, "rw", "directory")).foldsCase).toBe(false);
    expect(namesOf(await makeRoot(empty, "rw", "directory")).foldsCase).toBe(false);
    expect(fs.readdirSync(empty)).toEqual([]); // the probe file is gone
    expect(namesOf(await makeRoot(empty, "ro", "directory")).foldsCase).toBe(false);
    // Two hard links spelled in two cases are no sign of a case-insensitive volume.
    const linked = area.tree(`probe${n++}`, { "ab.txt": "x" });
    fs.linkSync(path.join(linked, "ab.txt"), path.join(linked, "Ab.txt"));
    expect(namesOf(await makeRoot(linked, "ro", "directory")).foldsCase).toBe(false);
  });
});

describe("forced case folding", () => {
  it("a root named in one case contains paths spelled in another, resolved to the names on disk", async () => {
    const dir = area.tree(`Root${n++}`, { "Sub/File.txt": "x" });
    const ws = new Workspace([await folded(dir)], filesystemPolicy.pathRules({}));
    const r = await ws.resolve(path.join(upper(dir), "SUB", "file.TXT"), { intent: "read" });
    expect(r.real).toBe(path.join(dir, "Sub", "File.txt"));
    expect(r.exists).toBe(true);
    expect(r.relative).toBe("Sub/File.txt");
    // Exact names (as on ext4): the other spelling is outside.
    const exact = new Workspace([await makeRoot(dir, "rw", "directory")], filesystemPolicy.pathRules({}));
    expect(await wordedRejection(exact.resolve(path.join(upper(dir), "Sub"), { intent: "read" }))).toMatch(
      /denied/,
    );
  });

  it("a read-only directory spelled in another case stays read-only, and cannot be moved", async () => {
    const dir = area.tree(`ro${n++}`, { "Docs/a.txt": "A" });
    const ws = new Workspace(
      [await folded(dir), await folded(path.join(dir, "Docs"), "ro")],
      filesystemPolicy.pathRules({}),
    );
    expect(await wordedRejection(ws.resolve(path.join(dir, "DOCS", "a.txt"), { intent: "write" }))).toMatch(
      /read-only/,
    );
    expect(await wordedRejection(ws.resolve(path.join(dir, "docs", "new.txt"), { intent: "write" }))).toMatch(
      /read-only/,
    );
    expect(await wordedRejection(ws.resolveEntry(path.join(dir, "DOCS"), { intent: "write" }))).toMatch(
      /read-only/,
    );
    expect(fs.readFileSync(path.join(dir, "Docs/a.txt"), "utf8")).toBe("A");
  });

  it(".GIT designates the repository: gated, and resolved as .git", async () => {
    const dir = area.tree(`git${n++}`, { ".git/config": "[core]\n", "a.txt": "a" });
    const root = await folded(dir);
    const ws = new Workspace([root], workspacePolicy.pathRules({}));
    // Writing there is refused as for .git itself (the workspace surface keeps .git out of reach).
    expect(await wordedRejection(ws.resolveEntry(".GIT", { intent: "write", base: root }))).toMatch(
      /excluded/,
    );
    expect(await wordedRejection(ws.resolveEntry(".GIT/config", { intent: "write", base: root }))).toMatch(
      /excluded/,
    );
    const entry = await ws.resolveEntry(".GIT", { intent: "read", base: root });
    expect(entry.relative).toBe(".git");
    expect(entry.spelled).toBe(".GIT");
    expect(await isGitIgnored(root, ".GIT/config", false)).toBe(true);
    // A .GIT that does not exist yet is the repository all the same.
    const fresh = await folded(area.tree(`fresh${n++}`));
    expect(await isGitIgnored(fresh, ".Git/hooks/pre-commit", false)).toBe(true);
    const exact = await makeRoot(area.tree(`exact${n++}`), "rw", "directory");
    expect(await isGitIgnored(exact, ".GIT/config", false)).toBe(false);
  });

  it("gitignore rules fold case as git's core.ignorecase does, only on a folding root", async () => {
    const files = { ".gitignore": "node_modules/\n*.LOG\n", "NODE_MODULES/x.js": "x", "Build.log": "l" };
    const dir = area.tree(`gi${n++}`, files);
    const root = await folded(dir);
    expect(await isGitIgnored(root, "NODE_MODULES/x.js", false)).toBe(true);
    expect(await isGitIgnored(root, "Build.log", false)).toBe(true);
    const exact = await makeRoot(dir, "rw", "directory");
    expect(await isGitIgnored(exact, "NODE_MODULES/x.js", false)).toBe(false);
    expect(await isGitIgnored(exact, "Build.log", false)).toBe(false);
    // The walker applies the same rules and skips a .GIT directory.
    fs.mkdirSync(path.join(dir, ".GIT"));
    fs.writeFileSync(path.join(dir, ".GIT", "HEAD"), "ref");
    const seen = (await walk({ root, start: dir, gitignore: true })).entries.map((e) => e.rel).sort();
    expect(seen).toEqual([".gitignore"]);
  });

  it("a case-only rename changes the spelling (filesystem and workspace moves)", async () => {
    const dir = area.tree(`mv${n++}`, { "Foo.txt": "foo", "Dir/x": "x" });
    const ws = new Workspace([await folded(dir)], filesystemPolicy.pathRules({}));
    const src = await ws.resolveEntry(path.join(dir, "Foo.txt"), { intent: "write" });
    const dst = await ws.resolveEntry(path.join(dir, "foo.txt"), { intent: "write" });
    await moveNoReplace(src, dst);
    expect(fs.readdirSync(dir).sort()).toEqual(["Dir", "foo.txt"]);
    expect(fs.readFileSync(path.join(dir, "foo.txt"), "utf8")).toBe("foo");
    const dsrc = await ws.resolveEntry(path.join(dir, "Dir"), { intent: "write" });
    const ddst = await ws.resolveEntry(path.join(dir, "DIR"), { intent: "write" });
    await moveEntry(dsrc, ddst);
    expect(fs.readdirSync(dir).sort()).toEqual(["DIR", "foo.txt"]);
    // Moving onto another existing entry is still refused.
    fs.writeFileSync(path.join(dir, "bar.txt"), "bar");
    const a = await ws.resolveEntry(path.join(dir, "foo.txt"), { intent: "write" });
    const b = await ws.resolveEntry(path.join(dir, "BAR.txt"), { intent: "write" });
    expect(await wordedRejection(moveNoReplace(a, b))).toMatch(/already exists/);
    expect(fs.readFileSync(path.join(dir, "bar.txt"), "utf8")).toBe("bar");
  });
});

describe("Windows path screening (pure, so tested on every host)", () => {
  const windows = (p: string) => screenRequestedPath(p, "win32");
  it("refuses streams, device names and trailing dots; reads \\\\?\\ forms as plain paths", () => {
    expect(wordedThrow(() => windows("C:\\p\\a.txt:s"))).toMatch(/alternate data stream/);
    expect(wordedThrow(() => windows("C:\\p\\a.txt::$DATA"))).toMatch(/alternate data stream/);
    expect(wordedThrow(() => windows("C:\\p\\NUL"))).toMatch(/reserved device name/);
    expect(wordedThrow(() => windows("c:/p/com1.txt"))).toMatch(/reserved device name/);
    expect(wordedThrow(() => windows("C:\\p\\Aux .log"))).toMatch(/reserved device name/);
    expect(wordedThrow(() => windows("C:\\p\\.git."))).toMatch(/trailing dots and spaces/);
    expect(wordedThrow(() => windows("C:\\p\\a.txt "))).toMatch(/trailing dots and spaces/);
    expect(wordedThrow(() => windows("\\\\.\\pipe\\x"))).toMatch(/device namespace/);
    expect(windows("\\\\?\\C:\\p\\a.txt")).toBe("C:\\p\\a.txt");
    expect(windows("\\\\?\\UNC\\host\\share\\a")).toBe("\\\\host\\share\\a");
    expect(windows("C:\\p\\..\\q\\nulx.txt")).toBe("C:\\p\\..\\q\\nulx.txt");
  });
});

describe("forced case folding, black-box (MCPFS_FORCE_CASE_FOLD=1)", () => {
  const env = { MCPFS_FORCE_CASE_FOLD: "1" };

  it("workspace surface: .GIT cannot be moved out nor deleted", async () => {
    const dir = area.tree(`bb${n++}`, { ".git/config": "[core]\n", "a.txt": "a" });
    const c = await startServer(["--project-dir", dir], { env });
    try {
      const moved = await c.call("move_file", { source_path: ".GIT", destination_path: "x" });
      expect(moved.isError).toBe(true);
      expect(moved.text).toMatch(/excluded by \.gitignore/);
      const deleted = await c.call("delete_this_file", { file_path: ".GIT/config" });
      expect(deleted.isError).toBe(true);
      const written = await c.call("save_file", { file_path: ".Git/hooks/post-checkout", content: "x" });
      expect(written.isError).toBe(true);
      const removed = await c.call("delete_directory", { dir_path: ".GIT", recursive: true });
      expect(removed.isError).toBe(true);
      expect(removed.text).toMatch(/excluded by \.gitignore/);
    } finally {
      await c.close();
    }
    expect(fs.readFileSync(path.join(dir, ".git/config"), "utf8")).toBe("[core]\n");
    expect(fs.existsSync(path.join(dir, "x"))).toBe(false);
    expect(fs.existsSync(path.join(dir, ".git/hooks"))).toBe(false);
  });

  it("filesystem surface: a root spelled in another case is accepted; case-only rename works", async () => {
    const dir = area.tree(`Bb${n++}`, { "Foo.txt": "foo" });
    const c = await startServer([dir], { env });
    try {
      const read = await c.call("read_text_file", { path: path.join(upper(dir), "foo.TXT") });
      expect(read.isError).toBe(false);
      expect(read.text).toBe("foo");
      const mv = await c.call("move_file", {
        source: path.join(dir, "Foo.txt"),
        destination: path.join(dir, "foo.txt"),
      });
      expect(mv.isError).toBe(false);
    } finally {
      await c.close();
    }
    expect(fs.readdirSync(dir)).toEqual(["foo.txt"]);
  });
});
