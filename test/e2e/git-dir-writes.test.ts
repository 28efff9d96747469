/**
 * Writes into `.git/` directories are refused by default on both surfaces (a planted config, hook or
 * attributes file would run a program on the user's next git command); `--allow-git-dir-writes` lifts the
 * refusal on the filesystem surface. Judged by effect: every `.git` directory is byte-for-byte unchanged.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { snapshotWithModes, tempArea } from "../helpers/fixtures.js";
import { commit, initRepo } from "../helpers/git-repo.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-gitdir-");
afterAll(() => area.cleanup());

let n = 0;
/** A repository with a nested repository, and a copy source that holds a crafted `.git` of its own. */
function fixture() {
  const w = area.tree(`w${n++}`, { "ok.txt": "ok\n", "hook.sh": "#!/bin/sh\ntouch planted\n" });
  initRepo(w);
  commit(w, { "tracked.txt": "t\n" }, "init");
  initRepo(path.join(w, "sub/nested"));
  fs.mkdirSync(path.join(w, "crafted/.git/hooks"), { recursive: true });
  fs.writeFileSync(path.join(w, "crafted/.git/config"), "[core]\n\tfsmonitor = ./hook.sh\n");
  fs.writeFileSync(path.join(w, "crafted/readme.txt"), "r\n");
  return w;
}

/** The `.git` directories of the fixture (what no call may change). */
function gitDirs(w: string) {
  return [path.join(w, ".git"), path.join(w, "sub/nested/.git")].map((d) => snapshotWithModes(d));
}

const targets = [".git/config", ".git/hooks/pre-commit", ".git/info/attributes", "sub/nested/.git/config"];

let conn: Connection | undefined;
afterEach(async () => {
  await conn?.close();
  conn = undefined;
});

describe("filesystem surface", () => {
  it("refuses every write into .git by every mutating tool, by default", async () => {
    const w = fixture();
    conn = await startServer([w]);
    const before = gitDirs(w);
    const j = (rel: string) => path.join(w, rel);
    for (const t of targets) {
      const exists = fs.existsSync(j(t));
      const calls: [string, Record<string, unknown>][] = [
        ["write_file", { path: j(t), content: "[core]\n\thooksPath = x\n" }],
        ["append_file", { path: j(t), content: "\n[core]\n\tfsmonitor = ./hook.sh\n" }],
        ["copy_file", { source: j("hook.sh"), destination: j(t), overwrite: true }],
        ["move_file", { source: j("hook.sh"), destination: j(t) }],
        ["create_directory", { path: j(`${t}.d`) }],
        [
          "apply_patch",
          {
            directory: w,
            patch: `--- /dev/null\n+++ b/${t}.new\n@@ -0,0 +1 @@\n+[core]\n`,
          },
        ],
      ];
      if (exists)
        calls.push(
          ["edit_file", { path: j(t), edits: [{ oldText: "[core]", newText: "[core]\n\tfsmonitor = x" }] }],
          ["edit_files", { files: [{ path: j(t), edits: [{ oldText: "[core]", newText: "[x]" }] }] }],
          ["move_file", { source: j(t), destination: j("stolen.txt") }],
          ["delete_file", { path: j(t) }],
          [
            "apply_patch",
            { directory: w, patch: `--- a/${t}\n+++ /dev/null\n@@ -1 +0,0 @@\n-${firstLine(j(t))}\n` },
          ],
        );
      for (const [tool, args] of calls) {
        const r = await conn.call(tool, args);
        expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
        expect(r.text, tool).toContain("writes inside .git directories are refused");
        expect(gitDirs(w), `${tool} ${JSON.stringify(args)}`).toEqual(before);
      }
    }
    for (const [tool, args] of [
      ["delete_directory", { path: j(".git/hooks"), recursive: true }],
      ["delete_directory", { path: j(".git"), recursive: true }],
      ["move_file", { source: j("sub/nested/.git"), destination: j("sub/nested/dotgit") }],
      ["move_file", { source: j("crafted"), destination: j(".git/modules") }],
      // A tree holding a crafted .git would plant a repository with its config and hooks.
      ["copy_file", { source: j("crafted"), destination: j("planted") }],
    ] as [string, Record<string, unknown>][]) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
      expect(r.text, tool).toContain("writes inside .git directories are refused");
      expect(gitDirs(w), `${tool} ${JSON.stringify(args)}`).toEqual(before);
    }
    expect(fs.existsSync(j("planted"))).toBe(false);
    expect(fs.existsSync(j("stolen.txt"))).toBe(false);
    expect(fs.readFileSync(j("hook.sh"), "utf8")).toContain("touch planted");
    // Everything else stays writable.
    expect((await conn.call("write_file", { path: j("new.txt"), content: "x" })).isError).toBe(false);
  });

  it("--allow-git-dir-writes lifts the refusal", async () => {
    const w = fixture();
    conn = await startServer([w, "--allow-git-dir-writes"]);
    const j = (rel: string) => path.join(w, rel);
    expect(
      (await conn.call("write_file", { path: j(".git/info/attributes"), content: "* -diff\n" })).text,
    ).toBe(`Successfully wrote to ${j(".git/info/attributes")}`);
    expect(fs.readFileSync(j(".git/info/attributes"), "utf8")).toBe("* -diff\n");
    expect((await conn.call("copy_file", { source: j("crafted"), destination: j("copied") })).isError).toBe(
      false,
    );
    expect(fs.existsSync(j("copied/.git/config"))).toBe(true);
    expect((await conn.call("delete_file", { path: j(".git/info/attributes") })).isError).toBe(false);
  });
});

function firstLine(file: string): string {
  return fs.readFileSync(file, "utf8").split("\n")[0]!;
}

describe("workspace surface", () => {
  it("refuses every write into .git by every mutating tool, even with --allow-git-dir-writes", async () => {
    const w = fixture();
    conn = await startServer(["--project-dir", w, "--allow-git-dir-writes"], { client: "v2" });
    const before = gitDirs(w);
    for (const t of targets) {
      const calls: [string, Record<string, unknown>][] = [
        ["save_file", { file_path: t, content: "[core]\n\thooksPath = x\n" }],
        ["append_file", { file_path: t, content: "\n[core]\n" }],
        ["edit_file", { file_path: t, old_string: "[core]", new_string: "[core]\n\tfsmonitor = x" }],
        ["move_file", { source_path: "hook.sh", destination_path: t }],
        ["move_file", { source_path: t, destination_path: "stolen.txt" }],
        ["delete_this_file", { file_path: t }],
      ];
      for (const [tool, args] of calls) {
        const r = await conn.call(tool, args);
        expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
        expect(gitDirs(w), `${tool} ${JSON.stringify(args)}`).toEqual(before);
      }
    }
    for (const [tool, args] of [
      ["delete_directory", { dir_path: ".git/hooks", recursive: true }],
      ["delete_directory", { dir_path: "sub/nested/.git", recursive: true }],
      ["move_file", { source_path: "sub/nested/.git", destination_path: "dotgit" }],
    ] as [string, Record<string, unknown>][]) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
      expect(gitDirs(w), `${tool} ${JSON.stringify(args)}`).toEqual(before);
    }
    expect(fs.existsSync(path.join(w, "stolen.txt"))).toBe(false);
    expect(fs.existsSync(path.join(w, "hook.sh"))).toBe(true);
  });
});
