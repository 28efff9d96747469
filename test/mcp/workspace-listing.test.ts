/** Workspace surface: list_directory, search_files, check_file_size and their reference twins, black-box. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-wslist-");
const project = area.tree("project", {
  ".gitignore": "*.log\nnode_modules/\n",
  "README.md": "# readme\nTODO: write\n",
  "app.log": "ignored\n",
  "node_modules/x/index.js": "TODO ignored\n",
  "src/main.py": "def foo():\n    return 1\n# TODO fix\n",
  "src/util.py": "import os\n",
  "src/.gitignore": "generated.py\n",
  "src/generated.py": "TODO generated\n",
  "docs/guide.md": "guide\n",
  "crlf.txt": "alpha\r\nbeta\r\n",
});
fs.mkdirSync(path.join(project, ".git"));
fs.writeFileSync(path.join(project, ".git", "HEAD"), "ref: TODO\n");
// A nested repository's .git folder is never listed or searched either.
area.tree("project/docs/vendored/.git", { HEAD: "ref: TODO\n", "config.txt": "TODO\n" });
const ref = area.tree("ref", {
  ".gitignore": "secret/\n",
  "secret/k.txt": "k\n",
  "lib/a.ts": "export const TODO = 1;\n",
  ".git/HEAD": "ref: TODO\n",
});

let conn: Connection;
beforeAll(async () => {
  conn = await startServer([
    "--project-dir",
    project,
    "--console-only",
    "--reference-project",
    `name=lib,path=${ref}`,
  ]);
});
afterAll(async () => {
  await conn.close();
  area.cleanup();
});

const err = (tool: string, msg: string) => `Error executing tool ${tool}: ${msg}`;
const blocks = (r: { raw: { content: { text: string }[] } }) => r.raw.content.map((c) => c.text);

describe("list_directory", () => {
  it("lists files as a tree (dirs first, sorted), one text block each, with root and nested .gitignore applied; .git never listed", async () => {
    const r = await conn.call("list_directory");
    const expected = [".gitignore", "README.md", "crlf.txt"];
    expect(blocks(r)).toEqual(["docs/guide.md", "src/.gitignore", "src/main.py", "src/util.py", ...expected]);
    expect(r.structured).toEqual({ result: blocks(r) });
  });

  it("scopes to a subtree with project-relative paths, and lists only directories with dirs_only", async () => {
    expect(blocks(await conn.call("list_directory", { path: "src" }))).toEqual([
      "src/.gitignore",
      "src/main.py",
      "src/util.py",
    ]);
    expect(blocks(await conn.call("list_directory", { dirs_only: true }))).toEqual(["docs/", "src/"]);
    // The root .gitignore still applies when listing an ignored directory itself: refused with the reason.
    const ignored = await conn.call("list_directory", { path: "node_modules" });
    expect(ignored.isError).toBe(true);
    expect(ignored.text).toContain("Directory 'node_modules' is excluded by .gitignore");
  });

  it("answers mcp-workspace's errors", async () => {
    expect((await conn.call("list_directory", { path: "README.md" })).text).toBe(
      err("list_directory", "'README.md' is a file, not a directory. Use read_file() instead."),
    );
    expect((await conn.call("list_directory", { path: "nope" })).text).toBe(
      err("list_directory", "Directory 'nope' does not exist"),
    );
    expect((await conn.call("list_directory", { path: "../x" })).text).toContain("contains '..' traversal");
  });

  it("auto-collapses deep directories past 250 lines and cuts at 250 with a summary", async () => {
    const big = area.tree("big", {});
    for (let i = 0; i < 30; i++)
      area.tree(
        `big/top/deep${String(i).padStart(2, "0")}`,
        Object.fromEntries(Array.from({ length: 20 }, (_, k) => [`f${k}.txt`, "x"])),
      );
    for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(big, `root${i}.txt`), "x");
    const c = await startServer(["--project-dir", big, "--console-only"]);
    try {
      const lines = blocks(await c.call("list_directory"));
      // 610 lines: the depth-2 directories (score 20 × 2, ties by name) collapse one by one, each saving 19
      // lines, until the listing fits: deep00..deep18 collapsed, 249 lines, no summary line.
      expect(lines).toHaveLength(249);
      expect(lines.slice(0, 19)).toEqual(
        Array.from({ length: 19 }, (_, i) => `top/deep${String(i).padStart(2, "0")}/ (20 files)`),
      );
      expect(lines.slice(19, 22)).toEqual(["top/deep19/f0.txt", "top/deep19/f1.txt", "top/deep19/f10.txt"]);
      expect(lines.slice(-10)).toEqual(Array.from({ length: 10 }, (_, i) => `root${i}.txt`));
      // dirs_only counts directory lines only: 31 here, nothing to collapse.
      const dirs = blocks(await c.call("list_directory", { dirs_only: true }));
      expect(dirs).toEqual([
        "top/",
        ...Array.from({ length: 30 }, (_, i) => `top/deep${String(i).padStart(2, "0")}/`),
      ]);

      // Too many immediate entries to collapse: cut at 250 plus the summary line.
      const flat = area.tree(
        "flat",
        Object.fromEntries(
          Array.from({ length: 300 }, (_, i) => [`f${String(i).padStart(3, "0")}.txt`, "x"]),
        ),
      );
      const c2 = await startServer(["--project-dir", flat, "--console-only"]);
      try {
        const l2 = blocks(await c2.call("list_directory"));
        expect(l2).toHaveLength(251);
        expect(l2[249]).toBe("f249.txt");
        expect(l2[250]).toBe(
          "... and 50 more entries (0 dirs, 50 files) — 300 total. Narrow with path=<subdir> or dirs_only=True.",
        );
      } finally {
        await c2.close();
      }
    } finally {
      await c.close();
    }
  });
});

describe("search_files", () => {
  it("finds files by gitignore-style glob", async () => {
    const r = await conn.call("search_files", { glob: "*.py" });
    const expected = {
      mode: "file_search",
      files: ["src/main.py", "src/util.py"],
      total_files: 2,
      truncated: false,
    };
    expect(r.structured).toEqual(expected);
    expect(r.text).toBe(JSON.stringify(expected, null, 2));
    expect((await conn.call("search_files", { glob: "/README.md" })).structured?.files).toEqual([
      "README.md",
    ]);
    const capped = await conn.call("search_files", { glob: "**/*", max_results: 2 });
    expect(capped.structured).toMatchObject({
      files: [".gitignore", "README.md"],
      total_files: 7,
      truncated: true,
    });
  });

  it("searches contents with context, skipping ignored files and .git", async () => {
    const r = await conn.call("search_files", { pattern: "TODO" });
    expect(r.structured).toEqual({
      mode: "content_search",
      details: [
        { file: "README.md", line: 2, text: "TODO: write" },
        { file: "src/main.py", line: 3, text: "# TODO fix" },
      ],
      total_matches: 2,
      truncated: false,
    });
    const c = await conn.call("search_files", { pattern: "return", glob: "src/*.py", context_lines: 1 });
    expect(c.structured?.details).toEqual([
      { file: "src/main.py", line: 2, text: "def foo():\n    return 1\n# TODO fix" },
    ]);
    const crlf = await conn.call("search_files", { pattern: "alpha" });
    expect(crlf.structured?.details).toEqual([{ file: "crlf.txt", line: 1, text: "alpha" }]);
  });

  it("caps details at max_results, lists matched_files, and falls back to literal text for a bad regex", async () => {
    const r = await conn.call("search_files", { pattern: "TODO", max_results: 1 });
    expect(r.structured).toEqual({
      mode: "content_search",
      details: [{ file: "README.md", line: 2, text: "TODO: write" }],
      total_matches: 2,
      truncated: true,
      matched_files: [
        { file: "README.md", lines: [2] },
        { file: "src/main.py", lines: [3] },
      ],
      more:
        "matches 1-1 of 2 shown; matched_files lists 2 of 2 files. " +
        'Next page: offset=1 (or a larger max_results). Or narrow with glob, e.g. "src/**/*.py".',
    });
    const lit = await conn.call("search_files", { pattern: "foo(" });
    expect(lit.structured).toMatchObject({
      details: [{ file: "src/main.py", line: 1, text: "def foo():" }],
      note: "Pattern treated as literal text (invalid regex). Use Python re syntax for regex search.",
    });
  });

  it("cuts a line at 500 characters and stops adding details at max_result_lines × 120 characters", async () => {
    const dir = area.tree("wide", {
      "long.txt": `${"y".repeat(600)} NEEDLE\nshort\n`,
      "many.txt": Array.from({ length: 5 }, (_, i) => `NEEDLE ${"z".repeat(50)} ${i}`).join("\n"),
    });
    const cut = `${"y".repeat(500)} ... [truncated, line has 607 chars]`;
    // Both content-search engines: in process (small scope) and ripgrep.
    for (const engine of ["js", "rg"]) {
      const c = await startServer(["--project-dir", dir, "--console-only"], {
        env: { MCPFS_GREP_ENGINE: engine },
      });
      try {
        const r = await c.call("search_files", { pattern: "NEEDLE", glob: "long.txt", context_lines: 1 });
        expect(r.structured?.details, engine).toEqual([{ file: "long.txt", line: 1, text: `${cut}\nshort` }]);
        // 120 characters: two 59-character lines fit, the third would not.
        const b = await c.call("search_files", { pattern: "NEEDLE", glob: "many.txt", max_result_lines: 1 });
        expect(b.structured, engine).toEqual({
          mode: "content_search",
          details: [0, 1].map((i) => ({
            file: "many.txt",
            line: i + 1,
            text: `NEEDLE ${"z".repeat(50)} ${i}`,
          })),
          total_matches: 5,
          truncated: true,
          matched_files: [{ file: "many.txt", lines: [1, 2, 3, 4, 5] }],
          more: expect.stringContaining(
            "matches 1-2 of 5 shown; matched_files lists 1 of 1 files. Next page: offset=2",
          ),
        });
      } finally {
        await c.close();
      }
    }
  });

  it("requires glob or pattern", async () => {
    expect((await conn.call("search_files", {})).text).toBe(
      err("search_files", "At least one of 'glob' or 'pattern' must be provided"),
    );
  });
});

describe("reference listing and search", () => {
  it("lists a reference project flat, gitignore applied, .git excluded", async () => {
    const r = await conn.call("list_reference_directory", { reference_name: "lib" });
    expect(blocks(r)).toEqual([".gitignore", "lib/a.ts"]);
    expect((await conn.call("list_reference_directory", { reference_name: "x" })).text).toBe(
      err("list_reference_directory", "Reference project 'x' not found"),
    );
  });

  it("searches a reference project", async () => {
    const r = await conn.call("search_reference_files", { reference_name: "lib", pattern: "TODO" });
    expect(r.structured?.details).toEqual([{ file: "lib/a.ts", line: 1, text: "export const TODO = 1;" }]);
    const g = await conn.call("search_reference_files", { reference_name: "lib", glob: "*.txt" });
    expect(g.structured).toMatchObject({ files: [], total_files: 0 });
  });
});

describe("check_file_size", () => {
  let dir: string;
  let c: Connection;
  beforeAll(async () => {
    dir = area.tree("sizes", {
      ".gitignore": "ignored/\n",
      "big.py": "x\n".repeat(700),
      "bigger.py": "x\n".repeat(900),
      "small.py": "x\n".repeat(10),
      "allowed.py": "x\n".repeat(650),
      "noeol.txt": "a\nb",
      "ignored/huge.py": "x\n".repeat(5000),
      "bin.dat": Buffer.from([0xff, 0xfe, 0x00, 0x0a]),
      ".large-files-allowlist":
        "# big ones\nallowed.py\nsmall.py  # no longer big\nmissing.py\nbin.dat\nignored/huge.py\n",
    });
    c = await startServer(["--project-dir", dir, "--console-only", "--file-size-limit", "800"]);
  });
  afterAll(async () => {
    await c.close();
  });

  it("reports violations, allowlisted files and stale entries in mcp-workspace's format", async () => {
    const r = await c.call("check_file_size", { max_lines: 600 });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      [
        "File size check failed: 2 file(s) exceed 600 lines",
        "",
        "Violations:",
        "  - bigger.py: 900 lines",
        "  - big.py: 700 lines",
        "",
        "Consider refactoring these files or adding them to the allowlist.",
        "\nAllowlisted files: 1",
        "\nStale allowlist entries (4):",
        "  - bin.dat",
        "  - ignored/huge.py",
        "  - missing.py",
        "  - small.py",
      ].join("\n"),
    );
  });

  it("defaults to 600 lines without --file-size-limit; nested .gitignore files are not read", async () => {
    const d = area.tree("sizes600", {
      "at.py": "x\n".repeat(600),
      "over.py": "x\n".repeat(601),
      "nested/.gitignore": "*.py\n",
      "nested/over.py": "x\n".repeat(602),
    });
    const s = await startServer(["--project-dir", d, "--console-only"]);
    try {
      expect((await s.call("check_file_size")).text).toBe(
        [
          "File size check failed: 2 file(s) exceed 600 lines",
          "",
          "Violations:",
          "  - nested/over.py: 602 lines",
          "  - over.py: 601 lines",
          "",
          "Consider refactoring these files or adding them to the allowlist.",
        ].join("\n"),
      );
    } finally {
      await s.close();
    }
  });

  it("defaults to --file-size-limit, and passes when nothing exceeds", async () => {
    const r = await c.call("check_file_size");
    expect(r.text.split("\n")[0]).toBe("File size check failed: 1 file(s) exceed 800 lines");
    const ok = await c.call("check_file_size", { max_lines: 5000 });
    // .gitignore, .large-files-allowlist and 5 text files are UTF-8; bin.dat is skipped.
    expect(ok.text.split("\n")[0]).toBe("File size check passed: all 7 files are within 5000 lines");
  });

  it("caps each list at 50 with a note on how to see the rest", async () => {
    const many = area.tree(
      "many",
      Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}.txt`, "x\n".repeat(3)])),
    );
    fs.writeFileSync(
      path.join(many, ".large-files-allowlist"),
      Array.from({ length: 55 }, (_, i) => `gone${i}.txt`).join("\n"),
    );
    const m = await startServer(["--project-dir", many, "--console-only"]);
    try {
      const lines = (await m.call("check_file_size", { max_lines: 2 })).text.split("\n");
      expect(lines[0]).toBe("File size check failed: 61 file(s) exceed 2 lines");
      // The allowlist file itself is over the limit too.
      expect(lines.filter((l) => / - .*: \d+ lines$/.test(l))).toHaveLength(50);
      // The note says how many are left, how large, and how to see them (the tool has no paging).
      expect(lines).toContain(
        "  ... showing 50 of 61 violations, the largest first; the other 11 have at most 3 lines each. To see them, split or allowlist the files above and run check_file_size again.",
      );
      expect(lines).toContain("Stale allowlist entries (55):");
      expect(lines.filter((l) => / - gone\d+\.txt$/.test(l))).toHaveLength(50);
      expect(lines).toContain(
        "  ... showing 50 of 55 stale entries, A to Z; the rest sort after gone53.txt. To see them, remove the entries above from .large-files-allowlist and run check_file_size again.",
      );
    } finally {
      await m.close();
    }
  });
});
