/** Workspace surface (`mcpfs --project-dir DIR`): the file tools, black-box through the SDK client. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolError, toClientMessage } from "../../src/core/errors.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-ws-");
const outside = area.tree("outside", { "secret.txt": "top secret\n" });
const project = area.tree("project", {
  "a.txt": "line1\nline2\nline3\n",
  "noeol.txt": "x\ny",
  "crlf.txt": "one\r\ntwo\r\nthree\r\n",
  "bad.bin": Buffer.from([0x61, 0xff, 0xfe, 0x0a]),
  ".gitignore": "*.log\nbuild/\n",
  "debug.log": "ignored\n",
  "build/out.js": "ignored\n",
  "sub/.gitignore": "local.txt\n",
  "sub/local.txt": "nested ignore\n",
  "sub/kept.txt": "kept\n",
  "dir/": null,
});
fs.writeFileSync(
  path.join(project, "hundred.txt"),
  `${Array.from({ length: 120 }, (_, i) => `L${i + 1}`).join("\n")}\n`,
);
fs.symlinkSync(outside, path.join(project, "out-link"));
fs.symlinkSync(path.join(outside, "secret.txt"), path.join(project, "secret-link.txt"));
fs.mkdirSync(path.join(project, ".git", "info"), { recursive: true });
fs.writeFileSync(path.join(project, ".git", "config"), "[core]\n");
fs.writeFileSync(path.join(project, ".git", "info", "exclude"), "rules/excluded.txt\n");
// A symlinked rules file is not read (git 2.32+): the rule in its target hides nothing.
fs.mkdirSync(path.join(project, "rules"));
fs.writeFileSync(path.join(project, "rules", "linked-rule.txt"), "not hidden\n");
fs.writeFileSync(path.join(project, "rules", "excluded.txt"), "hidden by .git/info/exclude\n");
fs.writeFileSync(path.join(project, "rules-target.txt"), "linked-rule.txt\n");
fs.symlinkSync(path.join(project, "rules-target.txt"), path.join(project, "rules", ".gitignore"));

let conn: Connection;
const p = (rel: string) => path.join(project, rel);

beforeAll(async () => {
  conn = await startServer(["--project-dir", project, "--console-only"]);
});
afterAll(async () => {
  await conn.close();
  area.cleanup();
});

const err = (tool: string, msg: string) => `Error executing tool ${tool}: ${msg}`;

describe("read_file", () => {
  it("reads a whole file as text (universal newlines, no numbers)", async () => {
    expect((await conn.call("read_file", { file_path: "a.txt" })).text).toBe("line1\nline2\nline3\n");
    expect((await conn.call("read_file", { file_path: "noeol.txt" })).text).toBe("x\ny");
    expect((await conn.call("read_file", { file_path: "crlf.txt" })).text).toBe("one\ntwo\nthree\n");
  });

  it("returns a line slice with right-aligned numbers and →", async () => {
    const r = await conn.call("read_file", { file_path: "hundred.txt", start_line: 99, end_line: 100 });
    expect(r.text).toBe(" 99→L99\n100→L100\n");
    expect(r.raw.content).toHaveLength(1);
    // FastMCP's structured form of a `str` result, plus the version read (lost-update protection).
    expect(r.structured?.result).toBe(r.text);
    expect(Object.keys(r.structured ?? {}).sort()).toEqual(["mtime", "result", "sha256", "size"]);
    const r2 = await conn.call("read_file", { file_path: "hundred.txt", start_line: 8, end_line: 10 });
    expect(r2.text).toBe(" 8→L8\n 9→L9\n10→L10\n");
  });

  it("clamps end past EOF, returns '' for a start past EOF, and honours with_line_numbers", async () => {
    expect((await conn.call("read_file", { file_path: "noeol.txt", start_line: 2, end_line: 9 })).text).toBe(
      "2→y",
    );
    expect((await conn.call("read_file", { file_path: "a.txt", start_line: 7, end_line: 9 })).text).toBe("");
    expect(
      (
        await conn.call("read_file", {
          file_path: "a.txt",
          start_line: 2,
          end_line: 2,
          with_line_numbers: false,
        })
      ).text,
    ).toBe("line2\n");
    expect((await conn.call("read_file", { file_path: "noeol.txt", with_line_numbers: true })).text).toBe(
      "1→x\n2→y",
    );
  });

  it("validates the range with mcp-workspace's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ start_line: 1 }, "start_line and end_line must both be provided or both omitted"],
      [{ end_line: 1 }, "start_line and end_line must both be provided or both omitted"],
      [{ start_line: 1.5, end_line: 2 }, "start_line and end_line must be integers"],
      [{ start_line: 0, end_line: 2 }, "start_line and end_line must be >= 1"],
      [{ start_line: 5, end_line: 2 }, "end_line (2) must be >= start_line (5)"],
    ];
    for (const [args, msg] of cases) {
      const r = await conn.call("read_file", { file_path: "a.txt", ...args });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(err("read_file", msg));
    }
  });

  it("reports missing files, directories, non-UTF-8 and empty paths", async () => {
    expect((await conn.call("read_file", { file_path: "nope.txt" })).text).toBe(
      err("read_file", "File 'nope.txt' does not exist"),
    );
    expect((await conn.call("read_file", { file_path: "dir" })).text).toBe(
      err("read_file", "Path 'dir' is not a file"),
    );
    expect((await conn.call("read_file", { file_path: "bad.bin" })).text).toContain(
      err("read_file", "File 'bad.bin' contains invalid characters. Not a UTF-8 text file: bad.bin."),
    );
    expect((await conn.call("read_file", { file_path: "" })).text).toBe(
      err("read_file", "File path must be a non-empty string, got <class 'str'>"),
    );
  });

  it("refuses gitignored paths (root and nested .gitignore) and anything under .git", async () => {
    for (const f of ["debug.log", "build/out.js", "sub/local.txt", ".git/config", "rules/excluded.txt"]) {
      const r = await conn.call("read_file", { file_path: f });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(
        err(
          "read_file",
          `File '${f}' is excluded by .gitignore and cannot be accessed. Use list_directory() to see available files.`,
        ),
      );
    }
    expect((await conn.call("read_file", { file_path: "sub/kept.txt" })).text).toBe("kept\n");
    expect((await conn.call("read_file", { file_path: "rules/linked-rule.txt" })).text).toBe("not hidden\n");
  });

  it("applies a rule added to a .gitignore from the next call on", async () => {
    expect((await conn.call("read_file", { file_path: "sub/kept.txt" })).isError).toBe(false);
    fs.writeFileSync(p("sub/.gitignore"), "local.txt\nkept.txt\n");
    try {
      expect((await conn.call("read_file", { file_path: "sub/kept.txt" })).isError).toBe(true);
    } finally {
      fs.writeFileSync(p("sub/.gitignore"), "local.txt\n");
    }
    expect((await conn.call("read_file", { file_path: "sub/kept.txt" })).text).toBe("kept\n");
  });
});

describe("path escapes are refused by every tool", () => {
  const escapes = [
    "../outside/secret.txt",
    "sub/../../outside/secret.txt",
    "out-link/secret.txt",
    "secret-link.txt",
    path.join(outside, "secret.txt"),
  ];
  const calls = (f: string): [string, Record<string, unknown>][] => [
    ["read_file", { file_path: f }],
    ["save_file", { file_path: f, content: "pwned" }],
    ["append_file", { file_path: f, content: "pwned" }],
    ["delete_this_file", { file_path: f }],
    ["delete_directory", { dir_path: path.dirname(f) === "." ? f : path.dirname(f), recursive: true }],
    ["move_file", { source_path: f, destination_path: "moved.txt" }],
    ["move_file", { source_path: "a.txt", destination_path: f }],
  ];

  it("never reads, writes or deletes outside the project", async () => {
    // An absolute path inside the project through `..` is refused too (the Python original accepts it).
    const viaProject = `${project}/../outside/secret.txt`;
    for (const f of [...escapes, viaProject]) {
      for (const [tool, args] of calls(f)) {
        const r = await conn.call(tool, args);
        // A link inside the project whose target is outside is refused even for delete/move (seed: a path
        // that leaves the project through a symlink is rejected), so the link itself is never touched either.
        expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(r.text).not.toContain("top secret");
        if (tool === "move_file") expect(r.text).toBe(err("move_file", "Invalid path"));
        else
          expect(r.text).toMatch(
            /Security error: Path '.*' (contains '\.\.' traversal|resolves to a location outside|is outside)/,
          );
      }
    }
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(p("a.txt"), "utf8")).toBe("line1\nline2\nline3\n");
    expect(fs.readlinkSync(p("secret-link.txt"))).toBe(path.join(outside, "secret.txt"));
  });

  it("names the project, not a reference project, for the code tools that take a tree", async () => {
    // find_references has "reference" in its name: its refusal spoke of "the reference project directory".
    for (const tool of ["find_references", "find_symbol", "repo_map", "outline"]) {
      const r = await conn.call(tool, { name: "x", path: "secret-link.txt" });
      expect(r.isError, tool).toBe(true);
      expect(r.text, tool).toContain("resolves to a location outside the project directory");
    }
  });
});

describe("save_file and append_file", () => {
  it("creates parent directories, writes LF text and answers true", async () => {
    const r = await conn.call("save_file", { file_path: "new/deep/f.txt", content: "a\r\nb\n" });
    expect(r.text).toBe("true");
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("new/deep/f.txt"), "utf8")).toBe("a\nb\n");
    // No temp files left beside it.
    expect(fs.readdirSync(p("new/deep"))).toEqual(["f.txt"]);
  });

  it("overwrites keeping the file mode", async () => {
    fs.writeFileSync(p("mode.sh"), "old\n", { mode: 0o751 });
    fs.chmodSync(p("mode.sh"), 0o751);
    expect((await conn.call("save_file", { file_path: "mode.sh", content: "new\n" })).text).toBe("true");
    expect(fs.statSync(p("mode.sh")).mode & 0o777).toBe(0o751);
    expect(fs.readFileSync(p("mode.sh"), "utf8")).toBe("new\n");
  });

  it("refuses gitignored and .git targets, even new ones", async () => {
    for (const f of ["new.log", ".git/hooks/post-commit", "build/x.js"]) {
      const r = await conn.call("save_file", { file_path: f, content: "x" });
      expect(r.text).toContain("is excluded by .gitignore and cannot be accessed");
      expect(fs.existsSync(p(f))).toBe(false);
    }
  });

  it("refuses content with lone surrogates", async () => {
    const r = await conn.call("save_file", { file_path: "s.txt", content: "a\ud800b" });
    expect(r.text).toBe(
      err("save_file", "Content contains characters that cannot be encoded. Please check the encoding."),
    );
  });

  it("appends to an existing file only, keeping CRLF files CRLF", async () => {
    expect((await conn.call("append_file", { file_path: "missing.txt", content: "x" })).text).toBe(
      err("append_file", "File 'missing.txt' does not exist"),
    );
    expect((await conn.call("append_file", { file_path: "dir", content: "x" })).text).toBe(
      err("append_file", "Path 'dir' is not a file"),
    );
    fs.writeFileSync(p("app.txt"), "one\n");
    expect((await conn.call("append_file", { file_path: "app.txt", content: "two\n" })).text).toBe("true");
    expect(fs.readFileSync(p("app.txt"), "utf8")).toBe("one\ntwo\n");
    fs.writeFileSync(p("app-crlf.txt"), "one\r\n");
    await conn.call("append_file", { file_path: "app-crlf.txt", content: "two\nthree\n" });
    expect(fs.readFileSync(p("app-crlf.txt"), "utf8")).toBe("one\r\ntwo\r\nthree\r\n");
  });
});

describe("delete_this_file", () => {
  it("deletes a file and answers true; reports missing and directories", async () => {
    fs.writeFileSync(p("gone.txt"), "x");
    expect((await conn.call("delete_this_file", { file_path: "gone.txt" })).text).toBe("true");
    expect(fs.existsSync(p("gone.txt"))).toBe(false);
    expect((await conn.call("delete_this_file", { file_path: "gone.txt" })).text).toBe(
      err("delete_this_file", "File 'gone.txt' does not exist"),
    );
    expect((await conn.call("delete_this_file", { file_path: "dir" })).text).toBe(
      err("delete_this_file", "Path 'dir' is not a file or is a directory"),
    );
  });

  it("removes a symlink itself, never its target", async () => {
    fs.writeFileSync(p("target.txt"), "keep me");
    fs.symlinkSync("target.txt", p("link.txt"));
    expect((await conn.call("delete_this_file", { file_path: "link.txt" })).text).toBe("true");
    expect(fs.existsSync(p("link.txt"))).toBe(false);
    expect(fs.readFileSync(p("target.txt"), "utf8")).toBe("keep me");
  });

  it("refuses gitignored files", async () => {
    const r = await conn.call("delete_this_file", { file_path: "debug.log" });
    expect(r.text).toContain("'debug.log' is excluded by .gitignore");
    expect(fs.existsSync(p("debug.log"))).toBe(true);
  });
});

describe("delete_directory", () => {
  it("deletes an empty directory; refuses a non-empty one without recursive", async () => {
    fs.mkdirSync(p("empty"));
    const r = await conn.call("delete_directory", { dir_path: "empty" });
    expect(r.raw.content.filter((c: { text: string }) => c.text !== r.change)).toEqual([
      { type: "text", text: "empty" },
    ]);
    expect(r.structured).toEqual({ result: ["empty"], changeId: expect.any(String) });
    fs.mkdirSync(p("full"));
    fs.writeFileSync(p("full/x"), "x");
    expect((await conn.call("delete_directory", { dir_path: "full" })).text).toBe(
      err(
        "delete_directory",
        "Directory 'full' is not empty. Pass recursive=True to delete it and its contents.",
      ),
    );
    expect(fs.existsSync(p("full/x"))).toBe(true);
  });

  it("returns a message, not an error, for a missing directory", async () => {
    const r = await conn.call("delete_directory", { dir_path: "no-such-dir" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe("Directory 'no-such-dir' does not exist — nothing to delete");
  });

  it("refuses files, the project root and gitignored directories", async () => {
    expect((await conn.call("delete_directory", { dir_path: "a.txt" })).text).toBe(
      err("delete_directory", "Path 'a.txt' is a file, not a directory. Use delete_this_file instead."),
    );
    for (const d of [".", project]) {
      expect((await conn.call("delete_directory", { dir_path: d, recursive: true })).text).toBe(
        err("delete_directory", "Refusing to delete the project root directory"),
      );
    }
    expect((await conn.call("delete_directory", { dir_path: "build", recursive: true })).text).toContain(
      "'build' is excluded by .gitignore",
    );
    expect((await conn.call("delete_directory", { dir_path: "" })).text).toBe(
      err("delete_directory", "Directory path must be a non-empty string, got <class 'str'>"),
    );
    expect(fs.existsSync(p("a.txt"))).toBe(true);
  });

  it("deletes a whole tree and caps the list at 20 entries; refuses one holding a gitignored entry", async () => {
    const files: Record<string, string> = { "__pycache__/c.pyc": "x" };
    for (let i = 0; i < 12; i++) files[`d${String(i).padStart(2, "0")}/f.txt`] = "x";
    area.tree("project/tree", files);
    fs.writeFileSync(p("tree/.gitignore"), "*.none\n");
    // mcpfs: what the gate hides is not changed through a folder either (issue 27).
    area.tree("project/tree2", { ".gitignore": "__pycache__/\n", "__pycache__/c.pyc": "x", "a.txt": "a" });
    const refused = await conn.call("delete_directory", { dir_path: "tree2", recursive: true });
    expect(refused.text).toContain("'tree2' holds entries that cannot be accessed");
    expect(fs.existsSync(p("tree2/__pycache__/c.pyc"))).toBe(true);
    const r = await conn.call("delete_directory", { dir_path: "tree", recursive: true });
    expect(r.isError).toBe(false);
    const lines = r.raw.content.map((c: { text: string }) => c.text).filter((t: string) => t !== r.change);
    // tree + .gitignore + __pycache__ + c.pyc + 12 dirs + 12 files = 28 entries.
    expect(lines).toHaveLength(21);
    expect(lines.slice(0, 5)).toEqual([
      "tree",
      "tree/.gitignore",
      "tree/__pycache__",
      "tree/__pycache__/c.pyc",
      "tree/d00",
    ]);
    expect(lines[20]).toBe("... and 8 more (14 files, 14 dirs deleted total)");
    expect(fs.existsSync(p("tree"))).toBe(false);
  });
});

describe("move_file", () => {
  it("moves with a filesystem rename, creating parents, and answers true", async () => {
    fs.writeFileSync(p("m1.txt"), "m1");
    expect(
      (await conn.call("move_file", { source_path: "m1.txt", destination_path: "x/y/m1.txt" })).text,
    ).toBe("true");
    expect(fs.readFileSync(p("x/y/m1.txt"), "utf8")).toBe("m1");
    expect(fs.existsSync(p("m1.txt"))).toBe(false);
  });

  it("answers with the simplified messages", async () => {
    expect((await conn.call("move_file", { source_path: "nope", destination_path: "b" })).text).toBe(
      err("move_file", "File not found"),
    );
    expect((await conn.call("move_file", { source_path: "a.txt", destination_path: "noeol.txt" })).text).toBe(
      err("move_file", "Destination already exists"),
    );
    expect((await conn.call("move_file", { source_path: "../x", destination_path: "b" })).text).toBe(
      err("move_file", "Invalid path"),
    );
    expect((await conn.call("move_file", { source_path: "", destination_path: "b" })).text).toBe(
      err("move_file", "Invalid source path"),
    );
    expect((await conn.call("move_file", { source_path: "a.txt", destination_path: "" })).text).toBe(
      err("move_file", "Invalid destination path"),
    );
    expect(
      (await conn.call("move_file", { source_path: "a.txt", destination_path: "a.log" })).text,
    ).toContain("'a.log' is excluded by .gitignore");
    // A directory into itself (EINVAL), and an unexpected failure (a name over 255 bytes: ENAMETOOLONG).
    area.tree("project/plain", { "k.txt": "k\n" });
    expect(
      (await conn.call("move_file", { source_path: "plain", destination_path: "plain/in/plain" })).text,
    ).toBe(err("move_file", "Invalid operation"));
    // A folder holding a gitignored entry (sub/local.txt) is not moved whole.
    expect((await conn.call("move_file", { source_path: "sub", destination_path: "sub2" })).text).toContain(
      "'sub' holds entries that cannot be accessed",
    );
    expect(
      (await conn.call("move_file", { source_path: "a.txt", destination_path: `d/${"n".repeat(300)}/x` }))
        .text,
    ).toBe(err("move_file", "Move operation failed"));
    expect(fs.existsSync(p("a.txt"))).toBe(true);
    expect(fs.existsSync(p("sub/kept.txt"))).toBe(true);
  });

  it("maps every other failure to the seed's words (Permission denied for EACCES/EPERM)", () => {
    const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });
    const cases: [unknown, string][] = [
      [errno("EACCES"), "Permission denied"],
      [errno("EPERM"), "Permission denied"],
      [new ToolError("Permission denied: 'x'", "os_denied", { path: "x" }), "Permission denied"],
      [new ToolError("Security error: Path 'x' is outside", "outside_roots"), "Invalid path"],
      [new ToolError("Path 'x' is in a read-only directory", "read_only"), "Invalid path"],
      [errno("ENOENT"), "File not found"],
      [errno("EEXIST"), "Destination already exists"],
      [errno("ENOTEMPTY"), "Destination already exists"],
      [errno("EINVAL"), "Invalid operation"],
      [errno("EIO"), "Move operation failed"],
      // Changed on purpose: a server fault says it is one (it was "Move operation failed").
      [new Error("boom"), toClientMessage(new Error("boom"), "src", "move_file")],
    ];
    for (const [e, msg] of cases)
      expect(workspacePolicy.errorText("move_file", e, toClientMessage(e, "src", "move_file"), "src")).toBe(
        err("move_file", msg),
      );
  });

  it("moves a symlink itself", async () => {
    fs.writeFileSync(p("t2.txt"), "t2");
    fs.symlinkSync("t2.txt", p("l2.txt"));
    expect((await conn.call("move_file", { source_path: "l2.txt", destination_path: "l3.txt" })).text).toBe(
      "true",
    );
    expect(fs.lstatSync(p("l3.txt")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(p("t2.txt"), "utf8")).toBe("t2");
  });
});

describe("move_file in a git repository", () => {
  const repo = area.tree("repo", { "tracked.txt": "t\n", "untracked.txt": "u\n" });
  let g: Connection;
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  beforeAll(async () => {
    git("init", "-q");
    git("-c", "user.email=t@e", "-c", "user.name=t", "add", "tracked.txt");
    git("-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "init");
    g = await startServer(["--project-dir", repo, "--console-only"]);
  });
  afterAll(async () => {
    await g.close();
  });

  it("uses git mv for a tracked file and a plain move for an untracked one", async () => {
    expect(
      (await g.call("move_file", { source_path: "tracked.txt", destination_path: "d/renamed.txt" })).text,
    ).toBe("true");
    expect(git("status", "--porcelain")).toContain("R  tracked.txt -> d/renamed.txt");
    expect(
      (await g.call("move_file", { source_path: "untracked.txt", destination_path: "u2.txt" })).text,
    ).toBe("true");
    expect(git("ls-files")).not.toContain("u2.txt");
    expect(fs.readFileSync(path.join(repo, "u2.txt"), "utf8")).toBe("u\n");
  });
});
