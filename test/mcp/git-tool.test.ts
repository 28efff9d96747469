import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { addBareRemote, commit, git, initRepo, innerRemotePath, refs } from "../helpers/git-repo.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-git-");
const repo = initRepo(path.join(area.base, "project"));
const bare = innerRemotePath(repo, "remote.git");
const outside = area.tree("outside", { "one.txt": "secret one\n", "two.txt": "secret two\n" });
const marker = path.join(area.base, "ran-a-program");

const moved = Array.from({ length: 8 }, (_, i) => `    const value${i} = compute(${i}) + offset;`).join("\n");
commit(
  repo,
  { "README.md": "hello\n", ".gitignore": "*.log\n", "src/a.ts": `function a() {\n${moved}\n}\n` },
  "first commit",
);
commit(repo, { "src/b.ts": "export const b = 1;\n" }, "second: add b");
git(repo, "branch", "feature");
addBareRemote(repo, bare);
// A commit only the remote has, so fetch has something to bring.
{
  const other = path.join(area.base, "other");
  git(area.base, "clone", "-q", bare, other);
  git(other, "config", "user.name", "Other");
  git(other, "config", "user.email", "o@example.com");
  commit(other, { "remote-only.txt": "x\n" }, "remote commit");
  git(other, "push", "-q", "origin", "HEAD:refs/heads/remote-branch");
}
// Programs a hostile repository config would run: none of them may ever execute.
const script = path.join(area.base, "evil.sh");
fs.writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
git(repo, "config", "core.fsmonitor", script);
git(repo, "config", "diff.external", script);
git(repo, "config", "core.pager", script);
fs.mkdirSync(path.join(repo, ".git/hooks"), { recursive: true });
fs.writeFileSync(path.join(repo, ".git/hooks/reference-transaction"), `#!/bin/sh\ntouch '${marker}'\n`, {
  mode: 0o755,
});
fs.writeFileSync(path.join(repo, "debug.log"), "ignored\n");

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(["--project-dir", repo, "--console-only"], { env: { GITHUB_TOKEN: "" } });
});
afterAll(async () => {
  await conn.close();
  area.cleanup();
});

const run = (args: Record<string, unknown>) => conn.call("git", args);

describe("git: every allowed command works on a real repository", () => {
  it("log with flags, a count, and search keeping whole entries", async () => {
    const r = await run({ command: "log", args: ["--oneline", "-n", "5"] });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/second: add b\n[0-9a-f]+ first commit/);
    const s = await run({ command: "log", search: "SECOND" });
    expect(s.text).toMatch(/^commit [0-9a-f]{40}/);
    expect(s.text).toContain("second: add b");
    expect(s.text).not.toContain("first commit");
    expect((await run({ command: "log", search: "nothing-like-this" })).text).toBe(
      "No matches for search pattern 'nothing-like-this'",
    );
    expect((await run({ command: "log", args: ["-1", "--format=%s"] })).text).toBe("second: add b");
  });

  it("diff: working tree, staged, revisions, search with context, and no changes", async () => {
    expect((await run({ command: "diff" })).text).toBe("No changes found");
    const d = await run({ command: "diff", args: ["HEAD~1", "HEAD"] });
    expect(d.text).toContain("+export const b = 1;");
    fs.writeFileSync(path.join(repo, "README.md"), "hello\nworld\n");
    git(repo, "add", "README.md");
    expect((await run({ command: "diff", args: ["--staged"] })).text).toContain("+world");
    expect((await run({ command: "diff", args: ["--cached", "--name-only"] })).text).toBe("README.md");
    const s = await run({ command: "diff", args: ["HEAD~1"], search: "export", context: 0 });
    expect(s.text).toContain("+export const b = 1;");
    expect(s.text).not.toContain("+world");
    git(repo, "reset", "-q", "--hard");
  });

  it("diff compacts moved code unless compact is false", async () => {
    const body = fs.readFileSync(path.join(repo, "src/a.ts"), "utf8");
    fs.writeFileSync(path.join(repo, "src/a.ts"), "function a() {}\n");
    fs.writeFileSync(path.join(repo, "src/b.ts"), `export const b = 1;\n${body}`);
    const c = await run({ command: "diff" });
    expect(c.text).toMatch(/^# Compact diff: \d+ → \d+ lines \(\d+% reduction, \d+ lines suppressed\)/);
    expect(c.text).toContain("+# [moved from src/a.ts:");
    expect(c.text).toContain("-# [moved to src/b.ts:");
    const full = await run({ command: "diff", compact: false });
    expect(full.text).not.toContain("Compact diff");
    expect(full.text).toContain("const value7");
    git(repo, "checkout", "-q", "--", ".");
  });

  it("status, short status, and the pathspec parameter", async () => {
    expect((await run({ command: "status", args: ["--short"] })).text).toBe("No changes found");
    fs.writeFileSync(path.join(repo, "new.txt"), "n\n");
    expect((await run({ command: "status", args: ["--short"] })).text).toBe("?? new.txt");
    expect((await run({ command: "status", args: ["--short"], pathspec: ["src"] })).text).toBe(
      "No changes found",
    );
    expect((await run({ command: "status", args: ["--porcelain", "--", "new.txt"] })).text).toBe(
      "?? new.txt",
    );
    fs.rmSync(path.join(repo, "new.txt"));
  });

  it("merge_base, including --is-ancestor true and false", async () => {
    const mb = await run({ command: "merge_base", args: ["main", "feature"] });
    expect(mb.text).toBe(git(repo, "rev-parse", "HEAD").trim());
    expect((await run({ command: "merge_base", args: ["--is-ancestor", "HEAD~1", "HEAD"] })).text).toBe(
      "true",
    );
    expect((await run({ command: "merge_base", args: ["--is-ancestor", "HEAD", "HEAD~1"] })).text).toBe(
      "false",
    );
  });

  it("fetch from the configured remote updates remote-tracking refs only", async () => {
    const before = refs(repo);
    expect(before).not.toContain("refs/remotes/origin/remote-branch");
    const r = await run({ command: "fetch", args: ["origin"] });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("Fetch complete (no output).");
    const after = refs(repo);
    expect(after).toContain("refs/remotes/origin/remote-branch");
    expect(after.split("\n").filter((l) => l.startsWith("refs/heads/"))).toEqual(
      before.split("\n").filter((l) => l.startsWith("refs/heads/")),
    );
    expect((await run({ command: "fetch", args: ["--dry-run", "--prune", "origin", "main"] })).isError).toBe(
      false,
    );
  });

  it("show: a commit with --stat, and a blob with grep-style search", async () => {
    expect((await run({ command: "show", args: ["--stat", "HEAD"] })).text).toContain("src/b.ts | 1 +");
    expect((await run({ command: "show", args: ["HEAD:README.md"] })).text).toBe("hello");
    const s = await run({ command: "show", args: ["HEAD:src/a.ts"], search: "value3", context: 1 });
    expect(s.text.split("\n")).toEqual([
      "    const value2 = compute(2) + offset;",
      "    const value3 = compute(3) + offset;",
      "    const value4 = compute(4) + offset;",
    ]);
  });

  it("branch: list, all, show-current, contains", async () => {
    expect((await run({ command: "branch", args: ["--list"] })).text).toMatch(/^ {2}feature\n\* main$/);
    expect((await run({ command: "branch", args: ["-a"] })).text).toContain("remotes/origin/remote-branch");
    expect((await run({ command: "branch", args: ["--show-current"] })).text).toBe("main");
    expect((await run({ command: "branch", args: ["--contains", "HEAD", "--list"] })).text).toContain(
      "feature",
    );
    expect((await run({ command: "branch", args: ["--list", "feat*"] })).text).toBe("  feature");
  });

  it("rev_parse, ls_tree, ls_files, ls_remote, check_ignore", async () => {
    expect((await run({ command: "rev_parse", args: ["--abbrev-ref", "HEAD"] })).text).toBe("main");
    expect((await run({ command: "ls_tree", args: ["-r", "--name-only", "HEAD"] })).text).toBe(
      ".gitignore\nREADME.md\nsrc/a.ts\nsrc/b.ts",
    );
    expect((await run({ command: "ls_files", pathspec: ["src"] })).text).toBe("src/a.ts\nsrc/b.ts");
    const lr = await run({ command: "ls_remote", args: ["--heads", "origin"] });
    expect(lr.text).toMatch(/refs\/heads\/remote-branch/);
    expect((await run({ command: "check_ignore", pathspec: ["debug.log", "README.md"] })).text).toBe(
      "debug.log",
    );
    expect((await run({ command: "check_ignore", pathspec: ["README.md"] })).text).toBe(
      "No paths are ignored.",
    );
  });

  it("caps output at max_lines with a count of the rest", async () => {
    const r = await run({ command: "ls_tree", args: ["-r", "--name-only", "HEAD"], max_lines: 2 });
    expect(r.text).toBe(".gitignore\nREADME.md\n[truncated — 2 more lines]");
  });

  it("warns about parameters a command does not use", async () => {
    const r = await run({ command: "status", args: ["--short"], compact: false, search: "x", context: 5 });
    expect(r.text).toContain("⚠ 'compact' is not supported for git status and was ignored.");
    expect(r.text).toContain("⚠ 'search' is not supported for git status and was ignored.");
    expect(r.text).toContain("⚠ 'context' is not supported for git status and was ignored.");
    const m = await run({ command: "merge_base", args: ["main", "feature"], pathspec: ["x"] });
    expect(m.text).toContain("⚠ 'pathspec' is not supported for git merge_base and was ignored.");
  });
});

describe("git: refused forms (each hole is closed)", () => {
  const refused = async (args: Record<string, unknown>, message: RegExp | string) => {
    const before = refs(repo);
    const r = await run(args);
    expect(r.isError).toBe(true);
    if (typeof message === "string") expect(r.text).toContain(message);
    else expect(r.text).toMatch(message);
    expect(refs(repo)).toBe(before);
    return r;
  };

  it("branch --sort=x NAME and --no-color NAME list instead of creating a branch", async () => {
    for (const args of [
      ["--sort=refname", "created-by-sort"],
      ["--sort", "refname", "created-by-sort"],
      ["--no-color", "--list", "created-by-no-color"],
      ["-v", "created-by-v"],
    ]) {
      const before = refs(repo);
      const r = await run({ command: "branch", args });
      expect(r.isError).toBe(false);
      expect(r.text).toBe("No branches found.");
      expect(refs(repo)).toBe(before);
    }
    await refused(
      { command: "branch", args: ["--no-color", "created-by-no-color"] },
      "requires a read-only flag",
    );
  });

  it("branch flags that write are refused, including bundled short flags", async () => {
    await refused(
      { command: "branch", args: ["-rd", "origin/remote-branch"] },
      "Flag '-rd' is not in the security allowlist for git_branch.",
    );
    await refused({ command: "branch", args: ["-D", "feature"] }, "Flag '-D'");
    await refused({ command: "branch", args: ["-m", "feature", "renamed"] }, "Flag '-m'");
    await refused(
      { command: "branch", args: ["--set-upstream-to=origin/main"] },
      "Flag '--set-upstream-to=origin/main'",
    );
    await refused({ command: "branch", args: ["--show-current", "x"] }, "takes no other arguments");
    await refused(
      { command: "branch", args: [] },
      "git branch requires a read-only flag (e.g. --list, -a, --show-current)",
    );
  });

  it("fetch cannot write local refs with a src:dst refspec, force, or a pattern", async () => {
    await refused(
      { command: "fetch", args: ["origin", "main:stolen"] },
      "Refspec 'main:stolen' is not allowed",
    );
    await refused({ command: "fetch", args: ["origin", "refs/heads/main:refs/heads/feature"] }, "Refspec");
    await refused({ command: "fetch", args: ["origin", "+main"] }, "Refspec '+main'");
    await refused({ command: "fetch", args: ["origin", "refs/heads/*"] }, "Refspec");
    expect(refs(repo)).not.toContain("refs/heads/stolen");
  });

  it("fetch and ls_remote cannot reach an arbitrary URL or path", async () => {
    await refused({ command: "fetch", args: ["https://example.com/x.git"] }, "is not a configured remote");
    await refused({ command: "fetch", args: ["git@example.com:o/r.git"] }, "is not a configured remote");
    await refused({ command: "fetch", args: [bare] }, "paths outside the repository are refused");
    await refused({ command: "fetch", args: ["file-remote"] }, "'file-remote' is not a configured remote");
    await refused(
      { command: "ls_remote", args: ["https://example.com/x.git"] },
      "is not a configured remote",
    );
    await refused(
      { command: "ls_remote", args: ["../remote.git"] },
      "paths outside the repository are refused",
    );
    await refused(
      { command: "fetch", args: ["--upload-pack=touch /tmp/x", "origin"] },
      "Flag '--upload-pack=touch /tmp/x'",
    );
    await refused({ command: "ls_remote", args: ["--upload-pack", "x", "origin"] }, "Flag '--upload-pack'");
  });

  it("fetch options that rewrite the clone are refused", async () => {
    await refused({ command: "fetch", args: ["--prune", "--tags", "origin"] }, "deletes local tags");
    await refused({ command: "fetch", args: ["--depth=1", "origin"] }, "Flag '--depth=1'");
    await refused({ command: "fetch", args: ["--force", "origin"] }, "Flag '--force'");
    await refused({ command: "fetch", args: ["--all", "origin"] }, "takes no remote");
    expect(fs.existsSync(path.join(repo, ".git/shallow"))).toBe(false);
  });

  it("diff cannot read files outside the repository (implicit --no-index)", async () => {
    const a = path.join(outside, "one.txt");
    const b = path.join(outside, "two.txt");
    const r = await refused({ command: "diff", args: [a, b] }, "paths outside the repository are refused");
    expect(r.text).not.toContain("secret");
    await refused(
      { command: "diff", args: ["../outside/one.txt", "../outside/two.txt"] },
      "outside the repository",
    );
    await refused({ command: "diff", args: ["--no-index", "a", "b"] }, "Flag '--no-index'");
    await refused({ command: "diff", args: ["--stat", a, b] }, "outside the repository");
    await refused({ command: "diff", pathspec: [a] }, "outside the repository");
  });

  it("output-writing and program-running flags are refused", async () => {
    const out = path.join(area.base, "written.txt");
    await refused({ command: "log", args: [`--output=${out}`] }, "Flag '--output=");
    await refused({ command: "diff", args: ["--output", out] }, "Flag '--output'");
    await refused({ command: "diff", args: ["--ext-diff"] }, "Flag '--ext-diff'");
    await refused({ command: "show", args: ["--textconv", "HEAD"] }, "Flag '--textconv'");
    await refused({ command: "log", args: ["--out=x"] }, "Flag '--out=x'");
    expect(fs.existsSync(out)).toBe(false);
  });

  it("anything but the twelve read commands is unknown", async () => {
    for (const command of ["push", "checkout", "commit", "config", "reset", "gc", "merge-base"])
      await refused({ command }, `Unknown git command: '${command}'`);
  });

  it("argument shape errors match mcp-workspace", async () => {
    await refused(
      { command: "log", args: ["--", "a", "--", "b"] },
      "Multiple '--' tokens in args are not allowed.",
    );
    await refused(
      { command: "log", args: ["--", "a"], pathspec: ["b"] },
      "Specify paths via either '--' in args or the 'pathspec' parameter, not both.",
    );
    await refused({ command: "fetch", args: ["--", "x"] }, "git fetch does not accept '--'");
    await refused({ command: "check_ignore" }, "git check_ignore requires at least one path in 'pathspec'");
    await refused(
      { command: "log", search: "(" },
      /^Error executing tool git: Invalid search pattern: missing closing \): `\(`$/,
    );
  });

  it("a hostile repository config never runs a program (fsmonitor, pager, external diff, hooks)", async () => {
    fs.writeFileSync(path.join(repo, "README.md"), "changed\n");
    await run({ command: "status" });
    await run({ command: "diff" });
    await run({ command: "log", args: ["-p", "-1"] });
    await run({ command: "fetch", args: ["origin"] });
    git(repo, "checkout", "-q", "--", "README.md");
    expect(fs.existsSync(marker)).toBe(false);
  });

  it("an unknown reference project and a project that is not a repository are errors", async () => {
    const r = await run({ command: "log", reference_name: "nope" });
    expect(r.isError).toBe(true);
    // Non-GitHub tools raise in mcp-workspace, so FastMCP prefixes the message.
    expect(r.text).toBe("Error executing tool git: Reference project 'nope' not found");
    const plain = area.tree("plain", { "x.txt": "x" });
    const c = await startServer(["--project-dir", plain, "--console-only"]);
    try {
      const s = await c.call("git", { command: "status" });
      expect(s.isError).toBe(true);
      expect(s.text).toBe(
        "Error executing tool git: Directory is not a git repository: the project directory",
      );
    } finally {
      await c.close();
    }
  });
});
