/**
 * One reply budget: with a small `--max-output-bytes`, every tool that can answer at length fits its own
 * reply — the text blocks together stay within the budget, and the reply ends with the tool's own note on
 * how to go on, never with the runner's last-resort cut. Both surfaces.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { commit, initRepo } from "../helpers/git-repo.js";
import { type Connection, startServer } from "../helpers/server.js";

const BUDGET = 2048;
const RUNNER_CUT = "[mcpfs: reply cut at the";

const area = tempArea("mcpfs-budget-");
const project = initRepo(path.join(area.base, "project"));
/** Short lines: line numbers make them half again as long as the bytes read. */
const short = Array.from({ length: 3000 }, (_, i) => `v${i}`).join("\n");
const files: Record<string, string> = { "short.txt": `${short}\n`, "other.txt": `${short}\n` };
const deep = "a-rather-long-directory-name/another-long-directory-name/yet-another-directory";
for (let i = 0; i < 120; i++)
  files[`${deep}/file-with-a-long-name-${String(i).padStart(3, "0")}.txt`] = `needle ${i}\n`;
commit(project, files, "many files");
commit(project, { "short.txt": `${short.replace(/v/g, "w")}\n` }, "change every line");
/** A reference project with the same files. */
const reference = area.tree("reference", files);
afterAll(() => area.cleanup());

const bytes = (r: { raw: { content?: { type: string; text?: string }[] } }) =>
  (r.raw.content ?? []).reduce((n, c) => n + (c.type === "text" ? Buffer.byteLength(c.text ?? "") : 0), 0);

function expectFitted(r: Awaited<ReturnType<Connection["call"]>>, note: RegExp) {
  expect(r.isError).toBe(false);
  expect(bytes(r)).toBeLessThanOrEqual(BUDGET);
  expect(r.text).not.toContain(RUNNER_CUT);
  expect(r.text).toMatch(note);
}

describe("filesystem surface: every long reply fits the budget by its own formatter", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", String(BUDGET), project]);
  });
  afterAll(() => conn?.close());
  const p = (rel: string) => path.join(project, rel);

  it.each([
    ["read_text_file", { path: p("short.txt") }, /Read on with startLine=\d+/],
    ["read_text_file (numbered)", { path: p("short.txt"), lineNumbers: true }, /Read on with startLine=\d+/],
    [
      "read_text_file (head, numbered)",
      { path: p("short.txt"), head: 2000, lineNumbers: true },
      /only the first/,
    ],
    [
      "read_text_file (tail, numbered)",
      { path: p("short.txt"), tail: 2000, lineNumbers: true },
      /Earlier lines/,
    ],
    [
      "read_text_file (range, numbered)",
      { path: p("short.txt"), startLine: 10, lineNumbers: true },
      /Read on with startLine=\d+/,
    ],
    ["read_multiple_files", { paths: [p("short.txt"), p("other.txt")] }, /Read on with read_multiple_files/],
    ["list_directory", { path: p(deep) }, /showing \d+ of 120 entries/],
    ["list_directory_with_sizes", { path: p(deep) }, /Combined size/],
    ["directory_tree", { path: project }, /Pass a subdirectory as path/],
    ["search_files", { path: project, pattern: "**/*.txt" }, /more exist/],
    ["grep", { path: project, pattern: "needle" }, /Next page: offset=\d+/],
    ["grep (files only)", { path: project, pattern: "needle", filesOnly: true }, /Next page: offset=\d+/],
    [
      "edit_file (dry run)",
      { path: p("other.txt"), edits: [{ oldText: "v1", newText: "x1", replaceAll: true }], dryRun: true },
      /diff truncated to fit/,
    ],
    [
      "edit_files (dry run)",
      {
        files: [{ path: p("other.txt"), edits: [{ oldText: "v1", newText: "x1", replaceAll: true }] }],
        dryRun: true,
      },
      /output truncated at 2048 bytes/,
    ],
  ])("%s", async (label, args, note) => {
    const name = label.split(" ")[0]!;
    expectFitted(await conn.call(name, args), note);
  });
});

describe("undo journal: list_changes and undo_change fit the budget", () => {
  const work = area.tree("journaled", {});
  const state = path.join(area.base, "state");
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", String(BUDGET), work], {
      env: { MCPFS_STATE_DIR: state },
    });
  });
  afterAll(() => conn?.close());
  const long = (i: number) =>
    path.join(work, `${deep.replace(/\//g, "-")}-${String(i).padStart(3, "0")}.txt`);

  it("list_changes ends with its own note when the changes do not fit", async () => {
    for (let i = 0; i < 40; i++)
      expect((await conn.call("write_file", { path: long(i), content: "x" })).isError).toBe(false);
    expectFitted(
      await conn.call("list_changes", { limit: 200 }),
      /older changes not shown: pass path to narrow/,
    );
  });

  it("undo_change of a change of many files cuts its steps, not the reply", async () => {
    const files = Array.from({ length: 40 }, (_, i) => ({
      path: long(i),
      edits: [{ oldText: "x", newText: "y" }],
    }));
    const edit = await conn.call("edit_files", { files });
    expect(edit.isError).toBe(false);
    const id = (edit.raw.structuredContent as { changeId: string }).changeId;
    expectFitted(await conn.call("undo_change", { id, dryRun: true }), /more steps not shown/);
  });
});

describe("resources/read: a file's text and its note fit the same budget", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", String(BUDGET), project]);
  });
  afterAll(() => conn?.close());

  it("cuts the text so the note fits beside it", async () => {
    const r = await conn.client.readResource({ uri: pathToFileURL(path.join(project, "other.txt")).href });
    const text = r.contents[0].text as string;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(BUDGET);
    expect(text).toMatch(/output truncated at 2048 bytes; the file has \d+ bytes/);
  });
});

describe("workspace surface: every long reply fits the budget by its own formatter", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([
      "--max-output-bytes",
      String(BUDGET),
      "--project-dir",
      project,
      "--reference-project",
      `self=${reference}`,
    ]);
  });
  afterAll(() => conn?.close());

  it.each([
    ["read_file", { file_path: "short.txt" }, /Read on with start_line=\d+/],
    [
      "read_file (numbered)",
      { file_path: "short.txt", with_line_numbers: true },
      /Read on with start_line=\d+/,
    ],
    [
      "read_file (range)",
      { file_path: "short.txt", start_line: 5, end_line: 2900 },
      /Read on with start_line=\d+/,
    ],
    ["list_directory", { path: "." }, /output capped at 2048 bytes/],
    [
      "read_reference_file",
      { reference_name: "self", file_path: "short.txt" },
      /Read on with start_line=\d+/,
    ],
    ["list_reference_directory", { reference_name: "self" }, /output capped at 2048 bytes/],
    [
      "edit_file (dry run)",
      { file_path: "other.txt", old_string: "v1", new_string: "x1", replace_all: true, dry_run: true },
      /diff cut at 2048 bytes; nothing was written/,
    ],
    ["git (log)", { command: "log", args: ["-p"], max_lines: 20000 }, /output cut at 2048 bytes/],
    [
      "git (diff)",
      { command: "diff", args: ["HEAD~1", "HEAD"], max_lines: 20000 },
      /output cut at 2048 bytes/,
    ],
  ])("%s", async (label, args, note) => {
    const name = label.split(" ")[0]!;
    expectFitted(await conn.call(name, args), note);
  });

  it.each([
    ["search_files (glob)", { glob: "**/*.txt", max_results: 1000 }, "files"],
    ["search_files (pattern)", { pattern: "needle|w", max_results: 1000, max_result_lines: 1000 }, "details"],
    [
      "search_reference_files (glob)",
      { reference_name: "self", glob: "**/*.txt", max_results: 1000 },
      "files",
    ],
  ])("%s: the JSON stays whole and parseable, its lists cut to fit", async (label, args, key) => {
    const r = await conn.call(label.split(" ")[0]!, args);
    expect(r.isError).toBe(false);
    expect(bytes(r)).toBeLessThanOrEqual(BUDGET);
    const parsed = JSON.parse(r.text);
    expect(parsed.truncated).toBe(true);
    expect((parsed[key] as unknown[]).length).toBeGreaterThan(0);
  });
});

it("the fixture is as long as the cases assume", () => {
  expect(fs.statSync(path.join(project, "short.txt")).size).toBeGreaterThan(4 * BUDGET);
});

/**
 * Every mutating tool, for real (no dry run), with changes large enough to fill the reply: the raw reply —
 * the undo journal's change line included — fits the budget, and the runner's final cut (which logs
 * "final cut fired" on stderr) never had to shorten it.
 */
const BACKSTOP = "final cut fired";
const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`).join("\n");
const code = (n: number) => `export function big() {\n${many(n, "  const v")}\n}\n`;

function mutatingFixture(name: string) {
  const long = `${deep}/${"x".repeat(60)}`;
  return area.tree(name, {
    "a.txt": `${many(900, "v")}\n`,
    "b.txt": `${many(900, "v")}\n`,
    "c.txt": `${many(900, "v")}\n`,
    "code.ts": code(300),
    [`${long}/f.txt`]: "x\n",
    ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`tree/${deep}-${i}.txt`, "t\n"])),
  });
}

async function runAll(conn: Connection, calls: [string, Record<string, unknown>][]) {
  for (const [name, args] of calls) {
    const r = await conn.call(name, args);
    expect({ name, error: r.isError ? r.text : undefined }).toEqual({ name, error: undefined });
    expect({ name, bytes: bytes(r) }).toEqual({ name, bytes: expect.any(Number) });
    expect(bytes(r), name).toBeLessThanOrEqual(BUDGET);
    expect(r.text, name).not.toContain(RUNNER_CUT);
  }
  expect(conn.stderr()).not.toContain(BACKSTOP);
}

describe("every mutating tool fits the budget for real, the backstop never fires", () => {
  it("filesystem surface", async () => {
    const dir = mutatingFixture("mut-fs");
    const conn = await startServer(["--max-output-bytes", String(BUDGET), dir]);
    try {
      const p = (rel: string) => path.join(dir, rel);
      const edit = await conn.call("edit_file", {
        path: p("a.txt"),
        edits: [{ oldText: "v", newText: "w", replaceAll: true }],
      });
      const id = (edit.raw.structuredContent as { changeId: string }).changeId;
      expect(bytes(edit)).toBeLessThanOrEqual(BUDGET);
      const patch = `--- a/c.txt\n+++ b/c.txt\n@@ -1,400 +1,400 @@\n${many(400, "-v")}\n${many(400, "+z")}\n`;
      await runAll(conn, [
        ["undo_change", { id }],
        ["write_file", { path: p("new.txt"), content: `${many(2000, "n")}\n` }],
        [
          "edit_files",
          { files: [{ path: p("b.txt"), edits: [{ oldText: "v", newText: "y", replaceAll: true }] }] },
        ],
        ["apply_patch", { patch, directory: dir }],
        ["append_file", { path: p("new.txt"), content: many(500, "m") }],
        ["replace_symbol", { path: p("code.ts"), name: "big", newText: code(200).replaceAll("v", "w") }],
        ["insert_symbol", { path: p("code.ts"), name: "big", position: "after", text: many(300, "// c") }],
        ["copy_file", { source: p("tree"), destination: p("tree2") }],
        ["create_directory", { path: p(`${deep}/${"y".repeat(80)}/${"z".repeat(80)}`) }],
        ["move_file", { source: p("tree2"), destination: p(`${deep}/${"m".repeat(80)}`) }],
        ["delete_file", { path: p("new.txt") }],
        ["delete_directory", { path: p("tree"), recursive: true }],
      ]);
    } finally {
      await conn.close();
    }
  });

  it("workspace surface", async () => {
    const dir = mutatingFixture("mut-ws");
    const conn = await startServer(["--max-output-bytes", String(BUDGET), "--project-dir", dir]);
    try {
      const edit = await conn.call("edit_file", {
        file_path: "a.txt",
        old_string: "v",
        new_string: "w",
        replace_all: true,
      });
      const id = (edit.raw.structuredContent as { changeId: string }).changeId;
      expect(bytes(edit)).toBeLessThanOrEqual(BUDGET);
      await runAll(conn, [
        ["undo_change", { id }],
        ["save_file", { file_path: "new.txt", content: `${many(2000, "n")}\n` }],
        ["append_file", { file_path: "new.txt", content: many(500, "m") }],
        ["replace_symbol", { file_path: "code.ts", name: "big", new_text: code(200).replaceAll("v", "w") }],
        ["insert_symbol", { file_path: "code.ts", name: "big", position: "after", text: many(300, "// c") }],
        ["move_file", { source_path: "tree", destination_path: `${deep}/${"m".repeat(80)}` }],
        ["delete_this_file", { file_path: "new.txt" }],
        ["delete_directory", { dir_path: `${deep}/${"m".repeat(80)}`, recursive: true }],
      ]);
    } finally {
      await conn.close();
    }
  });
});
