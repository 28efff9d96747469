/** Workspace surface: reference projects (both CLI spellings, validation, read-only), black-box. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshot, tempArea } from "../helpers/fixtures.js";
import { type Connection, runCli, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-ref-");
const project = area.tree("project", { "main.txt": "main\n", "inner/x.txt": "x\n" });
const ref1 = area.tree("ref1", {
  "README.md": "# one\nsecond\nthird\n",
  ".gitignore": ".env\n",
  ".env": "TOKEN=1\n",
  "src/app.ts": "export {};\n",
});
const ref2 = area.tree("ref2", { "two.txt": "two\n" });
const ref3 = area.tree("ref3", { "three.txt": "three\n" });
const outside = area.tree("outside", { "secret.txt": "top secret\n" });
execFileSync("git", ["-C", ref3, "init", "-q"]);
execFileSync("git", ["-C", ref3, "remote", "add", "origin", "git@github.com:Org/Three.git"]);
fs.symlinkSync(outside, path.join(ref1, "escape"));
fs.symlinkSync(ref1, path.join(project, "ref-link"));

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(
    [
      "--project-dir",
      project,
      "--console-only",
      "--reference-project",
      `docs=${ref1}`,
      "--reference-project",
      `name=docs,path=${ref2},url=https://github.com/org/two`,
      "--reference-project",
      `docs=${path.relative(area.base, ref3)}`,
      "--reference-project",
      `name=gone,path=${path.join(area.base, "missing")}`,
      "--reference-project",
      "name=nopath",
      "--reference-project",
      `self=${project}`,
      "--reference-project",
      `inner=${path.join(project, "inner")}`,
      "--reference-project",
      `above=${area.base}`,
      "--reference-project",
      `afile=${path.join(project, "main.txt")}`,
      "--reference-project",
      "no-equals-sign",
    ],
    { cwd: area.base },
  );
});
afterAll(async () => {
  await conn.close();
  area.cleanup();
});

const err = (tool: string, msg: string) => `Error executing tool ${tool}: ${msg}`;

describe("get_reference_projects", () => {
  it("lists valid references sorted, duplicates renamed, URLs from url= or origin", async () => {
    const r = await conn.call("get_reference_projects");
    const expected = {
      count: 3,
      projects: [
        { name: "docs", url: null },
        { name: "docs_2", url: "https://github.com/org/two" },
        { name: "docs_3", url: "git@github.com:Org/Three.git" },
      ],
      usage:
        "Pass a name as reference_name to the reference file tools, git(), and the GitHub read tools; " +
        "issues can also be created, edited and commented on",
    };
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual(expected);
    expect(r.text).toBe(JSON.stringify(expected, null, 2));
  });

  it("warned about the invalid ones at startup and kept serving", async () => {
    const log = conn.stderr();
    for (const warning of [
      `Reference project path does not exist: name=gone, path=${path.join(area.base, "missing")}`,
      "Invalid reference project format (missing 'path' key): argument=name=nopath",
      "Reference project 'self' points to the same directory as the main project",
      "Reference project 'inner' is a subdirectory of the main project",
      "Reference project 'above' is a parent of the main project",
      `Reference project path is not a directory: name=afile, path=${path.join(project, "main.txt")}`,
      "Invalid reference project format (expected NAME=/path or name=<name>,path=<path>[,url=<url>]): argument=no-equals-sign",
    ])
      expect(log).toContain(`WARNING: ${warning}`);
    // ...and kept the valid ones (get_reference_projects above lists exactly three).
    expect((await conn.call("read_file", { file_path: "main.txt" })).text).toBe("main\n");
  });

  it("answers count 0 when none are configured", async () => {
    const c = await startServer(["--project-dir", project, "--console-only"]);
    try {
      const r = await c.call("get_reference_projects");
      expect(JSON.parse(r.text)).toEqual({
        count: 0,
        projects: [],
        usage: "No reference projects available",
      });
    } finally {
      await c.close();
    }
  });
});

describe("read_reference_file", () => {
  it("reads whole files and line slices", async () => {
    expect(
      (await conn.call("read_reference_file", { reference_name: "docs", file_path: "README.md" })).text,
    ).toBe("# one\nsecond\nthird\n");
    const r = await conn.call("read_reference_file", {
      reference_name: "docs",
      file_path: "README.md",
      start_line: 2,
      end_line: 3,
    });
    expect(r.text).toBe("2→second\n3→third\n");
    expect(
      (await conn.call("read_reference_file", { reference_name: "docs_2", file_path: "two.txt" })).text,
    ).toBe("two\n");
  });

  it("refuses unknown names, escapes, and gitignored files", async () => {
    expect((await conn.call("read_reference_file", { reference_name: "nope", file_path: "x" })).text).toBe(
      err("read_reference_file", "Reference project 'nope' not found"),
    );
    for (const f of ["../outside/secret.txt", "escape/secret.txt", path.join(outside, "secret.txt")]) {
      const r = await conn.call("read_reference_file", { reference_name: "docs", file_path: f });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Security error");
      expect(r.text).not.toContain("top secret");
    }
    // A reference project's own files are out of reach of another reference name.
    const cross = await conn.call("read_reference_file", {
      reference_name: "docs_2",
      file_path: path.join(ref1, "README.md"),
    });
    expect(cross.isError).toBe(true);
    expect(
      (await conn.call("read_reference_file", { reference_name: "docs", file_path: ".env" })).text,
    ).toContain("is excluded by .gitignore");
  });
});

describe("reference projects are strictly read-only", () => {
  it("no write tool can touch them, by absolute path or through a symlink in the project", async () => {
    const before = snapshot(ref1);
    const target = path.join(ref1, "README.md");
    const attempts: [string, Record<string, unknown>][] = [
      ["save_file", { file_path: target, content: "x" }],
      ["save_file", { file_path: "ref-link/README.md", content: "x" }],
      ["save_file", { file_path: "ref-link/new.txt", content: "x" }],
      ["append_file", { file_path: target, content: "x" }],
      ["append_file", { file_path: "ref-link/README.md", content: "x" }],
      ["delete_this_file", { file_path: target }],
      ["delete_this_file", { file_path: "ref-link/README.md" }],
      ["delete_directory", { dir_path: path.join(ref1, "src"), recursive: true }],
      ["delete_directory", { dir_path: "ref-link/src", recursive: true }],
      ["move_file", { source_path: target, destination_path: "stolen.md" }],
      ["move_file", { source_path: "ref-link/README.md", destination_path: "stolen.md" }],
      ["move_file", { source_path: "main.txt", destination_path: "ref-link/main.txt" }],
      ["move_file", { source_path: "main.txt", destination_path: path.join(ref1, "main.txt") }],
      ["edit_file", { file_path: target, old_string: "# one", new_string: "x" }],
      ["edit_file", { file_path: "ref-link/README.md", old_string: "# one", new_string: "x" }],
      ["edit_file", { file_path: "ref-link/README.md", edits: [{ old_text: "# one", new_text: "x" }] }],
    ];
    for (const [tool, args] of attempts) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
    }
    expect(snapshot(ref1)).toEqual(before);
    expect(fs.existsSync(path.join(project, "stolen.md"))).toBe(false);
    expect(fs.readFileSync(path.join(project, "main.txt"), "utf8")).toBe("main\n");
  });
});

describe("startup validation", () => {
  it("exits 1 when an explicit url contradicts the origin remote", async () => {
    const r = await runCli([
      "--project-dir",
      project,
      "--console-only",
      "--reference-project",
      `name=three,path=${ref3},url=https://github.com/org/other`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "Error: URL mismatch for 'three': explicit 'https://github.com/org/other' != detected 'git@github.com:Org/Three.git'",
    );
  });

  it("accepts an explicit url that matches the origin in another spelling", async () => {
    const c = await startServer([
      "--project-dir",
      project,
      "--console-only",
      "--reference-project",
      `name=three,path=${ref3},url=https://GitHub.com/Org/Three/`,
    ]);
    try {
      const r = await c.call("get_reference_projects");
      expect(r.structured?.projects).toEqual([{ name: "three", url: "https://GitHub.com/Org/Three/" }]);
    } finally {
      await c.close();
    }
  });
});
