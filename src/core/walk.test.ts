import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../test/helpers/fixtures.js";
import { createIgnoreOracle, isGitIgnored } from "./ignore.js";
import { RuleMemory } from "./rule-memory.js";
import { STOP, walk, walkEach } from "./walk.js";
import type { Root } from "./workspace.js";

const area = tempArea("mcpfs-walk-");
afterAll(() => area.cleanup());

const rootDir = area.tree("repo", {
  ".gitignore": "dist/\n*.log\n!keep.log\n/top-only.txt\n",
  ".git/HEAD": "ref: refs/heads/main\n",
  ".git/info/exclude": "secret-local.txt\n",
  "secret-local.txt": "x",
  "top-only.txt": "x",
  "a.ts": "x",
  "b.log": "x",
  "keep.log": "x",
  ".hidden/h.txt": "x",
  "dist/out.js": "x",
  "src/index.ts": "x",
  "src/top-only.txt": "nested, not matched by the anchored rule",
  "src/debug.log": "x",
  "src/.gitignore": "gen/\n!important.log\n",
  "src/important.log": "x",
  "src/gen/g.ts": "x",
  "src/lib/util.ts": "x",
  "src/lib/deep/x.ts": "x",
  "node_modules/pkg/index.js": "x",
  "vendor/sub/.git/HEAD": "x",
  "vendor/sub/inner.log": "a nested repository inherits the outer rules, as ripgrep applies them",
  "vendor/sub/.git/info/exclude": "local-only.txt\n",
  "vendor/sub/local-only.txt": "excluded by the nested repository's own exclude file",
  "vendor/sub/kept.txt": "x",
  ".mcpfs-0123456789abcdef.tmp": "temp",
  "empty/": null,
});
fs.symlinkSync("src", path.join(rootDir, "link-to-src"));
fs.symlinkSync("/", path.join(rootDir, "link-out"));
const root: Root = { path: rootDir, real: rootDir, mode: "rw", kind: "directory" };

const rels = (r: { entries: { rel: string }[] }) => r.entries.map((e) => e.rel);

describe("walk", () => {
  it("returns every entry sorted, symlinks as symlinks, temp files hidden, without gitignore", async () => {
    const r = await walk({ root, start: rootDir, gitignore: false });
    const list = rels(r);
    expect(list).toEqual([...list].sort());
    expect(list).toContain(".git/HEAD");
    expect(list).toContain("dist/out.js");
    expect(list).not.toContain(".mcpfs-0123456789abcdef.tmp");
    const link = r.entries.find((e) => e.rel === "link-out")!;
    expect(link.type).toBe("symlink");
    expect(list.some((p) => p.startsWith("link-out/") || p.startsWith("link-to-src/"))).toBe(false);
    expect(r.entries.find((e) => e.rel === "src/lib/deep/x.ts")).toMatchObject({
      depth: 4,
      type: "file",
      real: path.join(rootDir, "src/lib/deep/x.ts"),
    });
    expect(r.truncated).toBe(false);
    expect(r.timedOut).toBe(false);
  });

  it("honours .gitignore at every level, .git/info/exclude, negations, anchors and nested repositories", async () => {
    const list = rels(await walk({ root, start: rootDir, gitignore: true }));
    for (const gone of [
      ".git",
      ".git/HEAD",
      "dist",
      "dist/out.js",
      "b.log",
      "src/debug.log",
      "top-only.txt",
      "secret-local.txt",
      "src/gen",
      "src/gen/g.ts",
      "vendor/sub/inner.log",
      "vendor/sub/local-only.txt",
    ])
      expect(list, gone).not.toContain(gone);
    for (const kept of [
      "keep.log",
      "src/important.log",
      "src/top-only.txt",
      ".hidden/h.txt",
      "node_modules/pkg/index.js",
      "vendor/sub/kept.txt",
      "empty",
      "a.ts",
    ])
      expect(list, kept).toContain(kept);
  });

  it("agrees with git itself on what is ignored", async () => {
    const dir = area.tree("gitcheck", {
      ".gitignore": "*.tmp\nbuild/\n!build/keep.txt\nfoo/**/bar\n",
      "x.tmp": "",
      "y.txt": "",
      "build/keep.txt": "",
      "foo/a/b/bar": "",
      "foo/bar": "",
      "sub/.gitignore": "*.txt\n!y.txt\n",
      "sub/z.txt": "",
      "sub/y.txt": "",
    });
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const gitList = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], {
      cwd: dir,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .sort();
    const r = await walk({ root: { ...root, real: dir, path: dir }, start: dir, gitignore: true });
    expect(r.entries.filter((e) => e.type === "file").map((e) => e.rel)).toEqual(gitList);
  });

  it("decides as git and rg do, at every level and from a start below the root", async () => {
    // A directory one level ignores and a deeper level re-includes: its entries are judged on their own
    // names (git and rg list pkg/build/out.js; the `ignore` package's parent check would drop it).
    const dir = area.tree("levels", {
      ".gitignore": "build/\n*.log\n!keep/\n",
      "pkg/.gitignore": "!build/\nkeep/\n!*.log\n",
      "pkg/build/out.js": "",
      "pkg/build/x.log": "",
      "pkg/keep/a.txt": "",
      "pkg/keep/b.log": "",
      "pkg/src/c.log": "",
      "build/d.js": "",
      "keep/e.log": "",
      "keep/f.txt": "",
    });
    const r: Root = { path: dir, real: dir, mode: "rw", kind: "directory" };
    for (const start of [dir, path.join(dir, "pkg"), path.join(dir, "pkg/build")]) {
      const all = (await walk({ root: r, start, gitignore: false })).entries;
      const ignored = createIgnoreOracle(r, start);
      const expected = all.filter((e) => !ignored(e.rel, e.type === "dir")).map((e) => e.rel);
      expect(rels(await walk({ root: r, start, gitignore: true })), start).toEqual(expected);
    }
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const gitList = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], {
      cwd: dir,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .sort();
    const files = (await walk({ root: r, start: dir, gitignore: true })).entries.filter(
      (e) => e.type === "file",
    );
    expect(files.map((e) => e.rel)).toEqual(gitList);
    expect(gitList).toContain("pkg/build/out.js");
  });

  it("gives the same entries with reads in flight (the mode for slow storage) as with slices of sync reads", async () => {
    for (const breadthFirst of [false, true]) {
      const sync = await walk({ root, start: rootDir, gitignore: true, breadthFirst });
      const inFlight = await walk({
        root,
        start: rootDir,
        gitignore: true,
        breadthFirst,
        parallelReads: true,
      });
      expect(inFlight).toEqual(sync);
    }
  });

  it("applies the rules of directories between the root and the start", async () => {
    const list = rels(await walk({ root, start: path.join(rootDir, "src"), gitignore: true }));
    expect(list).toContain("index.ts");
    expect(list).toContain("important.log");
    expect(list).not.toContain("debug.log");
    expect(list).not.toContain("gen");
  });

  it("prunes excluded directories, filters with include, limits depth", async () => {
    const seen: string[] = [];
    const r = await walk({
      root,
      start: rootDir,
      gitignore: true,
      exclude: (rel, isDir) => {
        seen.push(rel);
        return isDir && rel === "src";
      },
      include: (rel, isDir) => !isDir && rel.endsWith(".ts"),
    });
    expect(rels(r)).toEqual(["a.ts"]);
    expect(seen.some((s) => s.startsWith("src/"))).toBe(false);
    const shallow = await walk({ root, start: rootDir, gitignore: true, maxDepth: 1 });
    expect(shallow.entries.every((e) => e.depth === 1)).toBe(true);
    expect(rels(shallow)).toContain("src");
  });

  it("stops at the limit and reports truncation; exact limit is not truncation", async () => {
    const all = await walk({ root, start: rootDir, gitignore: true });
    const r = await walk({ root, start: rootDir, gitignore: true, limit: 3 });
    expect(r.entries).toHaveLength(3);
    expect(r.truncated).toBe(true);
    const exact = await walk({ root, start: rootDir, gitignore: true, limit: all.entries.length });
    expect(exact.truncated).toBe(false);
    expect(exact.entries).toHaveLength(all.entries.length);
  });

  it("is cancelled by an aborted signal and reports progress", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(walk({ root, start: rootDir, gitignore: true, signal: ac.signal })).rejects.toMatchObject({
      kind: "cancelled",
    });
    const big = area.tree(
      "big",
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i % 30}/f${i}`, ""])),
    );
    const ac2 = new AbortController();
    const p = walk({
      root: { ...root, real: big, path: big },
      start: big,
      gitignore: false,
      signal: ac2.signal,
      onProgress: () => {},
    });
    ac2.abort();
    await expect(p).rejects.toMatchObject({ kind: "cancelled" });
  });

  it("stops at the time limit", async () => {
    const r = await walk({ root, start: rootDir, gitignore: true, timeLimitMs: -1 });
    expect(r.timedOut).toBe(true);
  });

  it("keeps out of an excluded folder, and lets the visitor stop the walk", async () => {
    const seen: string[] = [];
    const exclude = (rel: string, isDir: boolean) => isDir && rel === "src";
    const stats = await walkEach({ root, start: rootDir, gitignore: false, exclude }, (_name, rel) => {
      seen.push(rel);
      return undefined;
    });
    expect(seen.filter((r) => r === "src" || r.startsWith("src/"))).toEqual([]);
    expect(seen).toContain("vendor/sub/kept.txt");
    expect(stats.stopped).toBe(false);
    let calls = 0;
    const stopped = await walkEach({ root, start: rootDir, gitignore: false }, () => {
      calls++;
      return calls === 2 ? STOP : undefined;
    });
    expect(calls).toBe(2);
    expect(stopped.stopped).toBe(true);
  });

  it("rejects a start that is not a directory", async () => {
    await expect(walk({ root, start: path.join(rootDir, "a.ts"), gitignore: false })).rejects.toMatchObject({
      kind: "not_directory",
    });
  });
});

describe("isGitIgnored", () => {
  it.each([
    [".git/HEAD", false, true],
    [".git", true, true],
    ["dist/out.js", false, true],
    ["dist", true, true],
    ["b.log", false, true],
    ["keep.log", false, false],
    ["src/debug.log", false, true],
    ["src/important.log", false, false],
    ["src/gen/g.ts", false, true],
    ["src/top-only.txt", false, false],
    ["top-only.txt", false, true],
    ["secret-local.txt", false, true],
    ["vendor/sub/inner.log", false, true],
    ["vendor/sub/local-only.txt", false, true],
    ["vendor/sub/kept.txt", false, false],
    ["a.ts", false, false],
    ["new/file.log", false, true],
    ["new/file.ts", false, false],
  ])("%s (dir=%s) → %s", async (rel, isDir, want) => {
    expect(isGitIgnored(root, rel, isDir)).toBe(want);
  });
});

describe("isGitIgnored over a rules file that changes", () => {
  it("reads a rewritten .gitignore again, even one of the same size written at once", () => {
    // The gate keeps each rules file's last read by its status: every rewrite must be seen by the next call.
    const dir = area.tree("rules-change", {});
    const r: Root = {
      path: dir,
      real: dir,
      mode: "rw",
      kind: "directory",
      startRules: new RuleMemory((p) => p),
    };
    fs.writeFileSync(path.join(dir, ".gitignore"), "a.txt\n");
    expect(isGitIgnored(r, "a.txt", false)).toBe(true);
    expect(isGitIgnored(r, "b.txt", false)).toBe(false);
    for (const [text, hidden] of [
      ["b.txt\n", "b.txt"],
      ["c.txt\n", "c.txt"],
      ["d.txt\n", "d.txt"],
    ] as const) {
      fs.writeFileSync(path.join(dir, ".gitignore"), text);
      expect(isGitIgnored(r, hidden, false)).toBe(true);
    }
    // The start-up rules still hold beside the rules now (a.txt was hidden when the server first read it).
    expect(isGitIgnored(r, "a.txt", false)).toBe(true);
    expect(isGitIgnored(r, "b.txt", false)).toBe(false);
  });
});
