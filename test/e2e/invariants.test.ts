/**
 * Black-box, tool by tool, on both surfaces: every read reply carries mtime and size, and the sha256 of the
 * whole file when it read the whole file, the file is small (≤ 256 KiB) or the hash was asked for (a head,
 * tail or range of a large file never hashes bytes it does not return unless asked); every mutating
 * tool keeps CRLF and the BOM of the file it changes, keeps its mode bits, never touches a symlink's target
 * outside the allowed directories, and writes one audit line per change (to --audit-log, or to the
 * workspace surface's JSON log without it).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Of } from "../../src/core/fs/hash.js";
import { snapshot, tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

const CRLF_BOM = "\uFEFFalpha\r\nbeta\r\ngamma\r\n";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const mode = (file: string) => fs.statSync(file).mode & 0o777;
const auditLines = (file: string): Record<string, unknown>[] =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

/** The file-changing tools a server lists: not read-only by their annotations (GitHub's remote ones aside). */
async function mutatingTools(conn: Connection): Promise<string[]> {
  const { tools } = await conn.client.listTools();
  return tools
    .filter((t: { annotations?: { readOnlyHint?: boolean } }) => t.annotations?.readOnlyHint !== true)
    .map((t: { name: string }) => t.name)
    .filter((n: string) => !n.startsWith("github_"))
    .sort();
}

/** Undoes the newest change (list_changes, then undo_change) and returns its id. */
async function undoNewest(conn: Connection): Promise<string> {
  const listed = await conn.call("list_changes", { limit: 1 });
  const id = /^([0-9a-z]{9}-[0-9a-f]{12}) /m.exec(listed.text)?.[1];
  expect(id, listed.text).toBeDefined();
  const r = await conn.call("undo_change", { id: id! });
  expect(r.isError, r.text).toBe(false);
  return id!;
}

describe("filesystem surface", () => {
  const root = area.tree("fs", {});
  const outside = area.tree("fs-outside", { "secret.txt": "secret\n", "dir/keep.txt": "keep\n" });
  const audit = path.join(area.base, "fs-audit.jsonl");
  const p = (rel: string) => path.join(root, rel);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root, "--audit-log", audit]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it("every read reply carries the file's sha256 and mtime", async () => {
    fs.writeFileSync(p("r.txt"), "read me\n");
    fs.writeFileSync(p("r.png"), PNG);
    const sha = sha256Of("read me\n");
    const mtime = new Date(Math.trunc(fs.statSync(p("r.txt")).mtimeMs)).toISOString();
    for (const tool of ["read_text_file", "read_file"]) {
      const r = await conn.call(tool, { path: p("r.txt") });
      expect(r.structured, tool).toMatchObject({ sha256: sha, mtime });
      const range = await conn.call(tool, { path: p("r.txt"), startLine: 1, endLine: 1 });
      expect(range.structured, `${tool} range`).toMatchObject({ sha256: sha, mtime, totalLines: 1 });
    }
    const many = await conn.call("read_multiple_files", { paths: [p("r.txt"), p("r.png")] });
    const files = many.structured!.files as Record<string, unknown>[];
    expect(files[0]).toMatchObject({ sha256: sha, mtime });
    // Bytes that are not UTF-8 text are refused by name (the one decode policy), never shown as mojibake.
    expect(files[1]).toMatchObject({ ok: false, error: expect.stringContaining("Not a UTF-8 text file") });
    const media = await conn.call("read_media_file", { path: p("r.png") });
    expect(media.structured).toMatchObject({
      sha256: sha256Of(PNG),
      mtime: new Date(Math.trunc(fs.statSync(p("r.png")).mtimeMs)).toISOString(),
    });
  });

  it("a head/tail/range of a file over 256 KiB carries mtime and size, and its sha256 only when asked", async () => {
    const body = "0123456789abcdef\n".repeat(40_000); // 680 KB
    fs.writeFileSync(p("big.txt"), body);
    const sha = sha256Of(body);
    const mtime = new Date(Math.trunc(fs.statSync(p("big.txt")).mtimeMs)).toISOString();
    for (const part of [{ head: 3 }, { tail: 3 }, { startLine: 5, endLine: 9 }, {}]) {
      const plain = await conn.call("read_text_file", { path: p("big.txt"), ...part });
      expect(plain.isError, plain.text).toBe(false);
      expect(plain.structured, JSON.stringify(part)).toMatchObject({ mtime, size: body.length });
      expect(plain.structured!.sha256, JSON.stringify(part)).toBeUndefined();
      const asked = await conn.call("read_text_file", { path: p("big.txt"), ...part, hash: true });
      expect(asked.structured, JSON.stringify(part)).toMatchObject({ sha256: sha, mtime });
    }
    // The asked-for hash protects a later change: after someone else's write it is refused, bytes unchanged.
    const { structured } = await conn.call("read_text_file", { path: p("big.txt"), head: 1, hash: true });
    fs.appendFileSync(p("big.txt"), "someone else\n");
    const edit = await conn.call("edit_file", {
      path: p("big.txt"),
      edits: [{ oldText: "0123456789abcdef", newText: "X" }],
      expectedSha256: structured!.sha256,
    });
    expect(edit.isError).toBe(true);
    expect(fs.readFileSync(p("big.txt"), "utf8")).toBe(`${body}someone else\n`);
  });

  it("keeps CRLF line endings and the BOM of every file it changes", async () => {
    const cases: [string, (f: string) => Record<string, unknown>, string][] = [
      ["edit_file", (f) => ({ path: f, edits: [{ oldText: "beta\ngamma", newText: "B\nC" }] }), "alpha B C"],
      [
        "edit_files",
        (f) => ({ files: [{ path: f, edits: [{ oldText: "beta", newText: "B\nb2" }] }] }),
        "alpha B b2 gamma",
      ],
      ["append_file", (f) => ({ path: f, content: "delta\nepsilon\n" }), "alpha beta gamma delta epsilon"],
      [
        "apply_patch",
        (f) => ({
          patch: `--- a/${path.basename(f)}\n+++ b/${path.basename(f)}\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+B\n gamma\n`,
          directory: root,
        }),
        "alpha B gamma",
      ],
      ["copy_file", (f) => ({ source: f, destination: `${f}.copy` }), "alpha beta gamma"],
    ];
    for (const [tool, args, words] of cases) {
      const f = p(`crlf-${tool}.txt`);
      fs.writeFileSync(f, CRLF_BOM);
      const r = await conn.call(tool, args(f));
      expect(r.isError, `${tool}: ${r.text}`).toBe(false);
      const out = fs.readFileSync(tool === "copy_file" ? `${f}.copy` : f, "utf8");
      expect(out, tool).toBe(`\uFEFF${words.split(" ").join("\r\n")}\r\n`);
    }
  });

  it("keeps the mode bits of every file it changes", async () => {
    const cases: [string, (f: string) => Record<string, unknown>, string?][] = [
      ["write_file", (f) => ({ path: f, content: "new\n" })],
      ["edit_file", (f) => ({ path: f, edits: [{ oldText: "one", newText: "ONE" }] })],
      ["edit_files", (f) => ({ files: [{ path: f, edits: [{ oldText: "one", newText: "ONE" }] }] })],
      ["append_file", (f) => ({ path: f, content: "more\n" })],
      [
        "apply_patch",
        (f) => ({
          patch: `--- a/${path.basename(f)}\n+++ b/${path.basename(f)}\n@@ -1 +1 @@\n-one\n+ONE\n`,
          directory: root,
        }),
      ],
      ["copy_file", (f) => ({ source: f, destination: `${f}.copy` }), ".copy"],
      ["move_file", (f) => ({ source: f, destination: `${f}.moved` }), ".moved"],
    ];
    for (const [tool, args, suffix] of cases) {
      for (const bits of [0o750, 0o604]) {
        const f = p(`mode-${tool}-${bits.toString(8)}.sh`);
        fs.writeFileSync(f, "one\n");
        fs.chmodSync(f, bits);
        const r = await conn.call(tool, args(f));
        expect(r.isError, `${tool}: ${r.text}`).toBe(false);
        expect(mode(f + (suffix ?? "")), `${tool} ${bits.toString(8)}`).toBe(bits);
      }
    }
  });

  it("never reads, writes or deletes through a symlink to outside", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), p("out-file"));
    fs.symlinkSync(path.join(outside, "dir"), p("out-dir"));
    fs.writeFileSync(p("in.txt"), "inside\n");
    const before = snapshot(outside);
    const sha = sha256Of("secret\n");
    const calls: [string, Record<string, unknown>][] = [
      ["write_file", { path: p("out-file"), content: "x" }],
      ["write_file", { path: p("out-dir/new.txt"), content: "x" }],
      ["edit_file", { path: p("out-file"), edits: [{ oldText: "secret", newText: "x" }] }],
      ["append_file", { path: p("out-file"), content: "x" }],
      ["append_file", { path: p("out-dir/new.txt"), content: "x" }],
      ["create_directory", { path: p("out-dir/sub") }],
      ["copy_file", { source: p("out-file"), destination: p("copy.txt") }],
      ["copy_file", { source: p("in.txt"), destination: p("out-dir/in.txt") }],
      ["copy_file", { source: p("in.txt"), destination: p("out-file"), overwrite: true }],
      ["delete_file", { path: p("out-dir/keep.txt") }],
      ["delete_file", { path: p("out-file"), expectedSha256: sha }],
      ["delete_directory", { path: p("out-dir"), recursive: true }],
      ["move_file", { source: p("out-dir/keep.txt"), destination: p("moved.txt") }],
      ["move_file", { source: p("in.txt"), destination: p("out-dir/in.txt") }],
      ["edit_files", { files: [{ path: p("out-file"), edits: [{ oldText: "secret", newText: "x" }] }] }],
      [
        "apply_patch",
        { patch: "--- a/out-file\n+++ b/out-file\n@@ -1 +1 @@\n-secret\n+x\n", directory: root },
      ],
      [
        "apply_patch",
        { patch: "--- /dev/null\n+++ b/out-dir/new.txt\n@@ -0,0 +1 @@\n+x\n", directory: root },
      ],
      [
        "apply_patch",
        { patch: "--- a/keep.txt\n+++ b/keep.txt\n@@ -1 +1 @@\n-keep\n+x\n", directory: p("out-dir") },
      ],
    ];
    for (const [tool, args] of calls) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
      expect(r.text, tool).not.toContain(outside);
    }
    // copy_file over the link with overwrite was refused above; the link and the file outside are intact.
    expect(snapshot(outside)).toEqual(before);
    expect(fs.readlinkSync(p("out-file"))).toBe(path.join(outside, "secret.txt"));
    expect(fs.readFileSync(p("in.txt"), "utf8")).toBe("inside\n");
  });

  it("apply_patch: git diff -M with rename, pure rename, delete, new dir and mode change; bounded fuzz", async () => {
    const g = p("repo");
    fs.mkdirSync(g);
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...a], { cwd: g, encoding: "utf8" });
    const lines = (n: string) => `${Array.from({ length: 8 }, (_, i) => `${n}${i}`).join("\n")}\n`;
    fs.writeFileSync(path.join(g, "edit.txt"), lines("e"));
    fs.writeFileSync(path.join(g, "ren.txt"), lines("r"));
    fs.writeFileSync(path.join(g, "pure.txt"), lines("p"));
    fs.writeFileSync(path.join(g, "del.txt"), "bye\n");
    fs.writeFileSync(path.join(g, "run.sh"), "echo\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "i");
    fs.writeFileSync(path.join(g, "edit.txt"), lines("e").replace("e4", "E4"));
    git("mv", "ren.txt", "moved.txt");
    fs.writeFileSync(path.join(g, "moved.txt"), lines("r").replace("r7", "R7"));
    fs.mkdirSync(path.join(g, "sub"));
    git("mv", "pure.txt", "sub/pure.txt");
    git("rm", "-q", "del.txt");
    fs.mkdirSync(path.join(g, "a/b"), { recursive: true });
    fs.writeFileSync(path.join(g, "a/b/new.txt"), "new\n");
    fs.chmodSync(path.join(g, "run.sh"), 0o755);
    git("add", "-A");
    const patch = git("diff", "--cached", "-M");
    expect(patch).toContain("rename from pure.txt");
    expect(patch).toContain("similarity index 100%");
    expect(patch).toContain("deleted file mode");
    const wanted = snapshot(g);
    git("reset", "-q", "--hard");
    git("clean", "-qfd");
    fs.chmodSync(path.join(g, "run.sh"), 0o644);
    // A line near the edit changed since the diff was made: an outer context line differs.
    fs.writeFileSync(path.join(g, "edit.txt"), lines("e").replace("e1", "e1 changed"));
    const strict = await conn.call("apply_patch", { patch, directory: g, fuzz: 0 });
    expect(strict.isError).toBe(true);
    expect(strict.text).toContain("edit.txt hunk #1");
    expect(strict.text).toContain("nothing was changed");
    expect(fs.existsSync(path.join(g, "del.txt"))).toBe(true);
    // Fuzz is bounded (0-3).
    const tooFuzzy = await conn.call("apply_patch", { patch, directory: g, fuzz: 9 });
    expect(tooFuzzy.isError).toBe(true);
    expect(fs.existsSync(path.join(g, "del.txt"))).toBe(true);
    const ok = await conn.call("apply_patch", { patch, directory: g, fuzz: 2 });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.text).toMatch(/fuzz/);
    const got = snapshot(g);
    for (const m of [got, wanted])
      for (const k of [...m.keys()]) if (k.includes(`${path.sep}.git`)) m.delete(k);
    wanted.set(path.join(g, "edit.txt"), lines("e").replace("e1", "e1 changed").replace("e4", "E4"));
    expect(got).toEqual(wanted);
    expect(mode(path.join(g, "run.sh"))).toBe(0o755);
  });

  it("audits every mutating tool it lists: tool, path, bytes, hashes before and after, duration", async () => {
    const git = (...a: string[]) => execFileSync("git", a, { cwd: root, encoding: "utf8" });
    expect(git("--version")).toMatch(/^git version/);
    fs.mkdirSync(p("au"), { recursive: true });
    fs.writeFileSync(p("au/a.txt"), "a\n");
    fs.writeFileSync(p("au/gone.txt"), "gone\n");
    fs.mkdirSync(p("au/d"));
    fs.writeFileSync(p("au/f.ts"), "function f() {}\n");
    fs.writeFileSync(
      p("au/nb.ipynb"),
      '{"cells":[{"cell_type":"markdown","id":"a1","metadata":{},"source":"hi"}],"metadata":{},"nbformat":4,"nbformat_minor":5}\n',
    );
    fs.writeFileSync(p("au/conf.json"), '{ "a": 1 }\n');
    fs.writeFileSync(p("au/lines.txt"), "one\ntwo\n");
    const calls: [string, Record<string, unknown>][] = [
      ["write_file", { path: p("au/a.txt"), content: "a2\n" }],
      ["edit_file", { path: p("au/a.txt"), edits: [{ oldText: "a2", newText: "a3" }] }],
      ["create_directory", { path: p("au/new") }],
      ["append_file", { path: p("au/a.txt"), content: "tail\n" }],
      ["copy_file", { source: p("au/a.txt"), destination: p("au/b.txt") }],
      ["move_file", { source: p("au/b.txt"), destination: p("au/c.txt") }],
      ["edit_files", { files: [{ path: p("au/c.txt"), edits: [{ oldText: "tail", newText: "TAIL" }] }] }],
      [
        "apply_patch",
        { patch: "--- a/c.txt\n+++ b/c.txt\n@@ -1,2 +1,2 @@\n a3\n-TAIL\n+end\n", directory: p("au") },
      ],
      ["replace_symbol", { path: p("au/f.ts"), name: "f", newText: "function f() { return 1; }" }],
      ["insert_symbol", { path: p("au/f.ts"), name: "f", position: "after", text: "function g() {}" }],
      ["notebook_edit", { path: p("au/nb.ipynb"), edits: [{ cell: 0, source: "hello" }] }],
      ["edit_structured", { path: p("au/conf.json"), edits: [{ set: "a", value: 2 }] }],
      [
        "edit_lines",
        {
          path: p("au/lines.txt"),
          edits: [{ startLine: 2, endLine: 2, newText: "TWO" }],
          expectedSha256: sha256Of("one\ntwo\n"),
        },
      ],
      ["delete_file", { path: p("au/gone.txt") }],
      ["delete_directory", { path: p("au/d") }],
    ];
    expect([...calls.map(([t]) => t), "undo_change"].sort()).toEqual(await mutatingTools(conn));
    for (const [tool, args] of calls) expect((await conn.call(tool, args)).isError, tool).toBe(false);
    const undone = await undoNewest(conn);
    const lines = auditLines(audit);
    expect(lines.find((l) => l.tool === "undo_change" && l.ok === true)).toMatchObject({
      op: "undo",
      path: p("au/d"),
      changeId: expect.stringMatching(/^[0-9a-z]{9}-[0-9a-f]{12}$/),
    });
    expect(lines.find((l) => l.tool === "delete_directory" && l.ok === true)).toMatchObject({
      changeId: undone,
    });
    for (const [tool] of calls) {
      const line = lines.find((l) => l.tool === tool && l.ok === true);
      expect(line, tool).toMatchObject({ path: expect.any(String), ms: expect.any(Number) });
    }
    const byTool = (t: string) => lines.filter((l) => l.tool === t && l.ok === true).at(-1)!;
    expect(byTool("write_file")).toMatchObject({
      op: "write",
      bytes: 3,
      before: sha256Of("a\n"),
      after: sha256Of("a2\n"),
    });
    expect(byTool("edit_file")).toMatchObject({ before: sha256Of("a2\n"), after: sha256Of("a3\n") });
    expect(byTool("append_file")).toMatchObject({
      before: sha256Of("a3\n"),
      after: sha256Of("a3\ntail\n"),
      bytes: 8,
    });
    expect(byTool("copy_file")).toMatchObject({
      op: "create",
      from: p("au/a.txt"),
      after: sha256Of("a3\ntail\n"),
    });
    expect(byTool("move_file")).toMatchObject({ op: "move" });
    expect(byTool("apply_patch")).toMatchObject({
      before: sha256Of("a3\nTAIL\n"),
      after: sha256Of("a3\nend\n"),
    });
    expect(byTool("delete_file")).toMatchObject({ op: "delete", before: sha256Of("gone\n") });
  });
});

describe("workspace surface", () => {
  const project = area.tree("ws", { ".gitignore": "logs/\n" });
  const outside = area.tree("ws-outside", { "secret.txt": "secret\n", "dir/keep.txt": "keep\n" });
  const reference = area.tree("ws-ref", { "ref.txt": "reference\n" });
  const p = (rel: string) => path.join(project, rel);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--reference-project", `ref=${reference}`]);
  });
  afterAll(async () => {
    await conn.close();
  });
  const workspaceLog = () => {
    const dir = p("logs");
    const [name] = fs.readdirSync(dir);
    return auditLines(path.join(dir, name!));
  };

  it("every read reply carries the file's sha256 and mtime", async () => {
    fs.writeFileSync(p("r.txt"), "read me\n");
    const r = await conn.call("read_file", { file_path: "r.txt" });
    expect(r.structured).toMatchObject({
      sha256: sha256Of("read me\n"),
      mtime: new Date(Math.trunc(fs.statSync(p("r.txt")).mtimeMs)).toISOString(),
    });
    const ref = await conn.call("read_reference_file", { reference_name: "ref", file_path: "ref.txt" });
    expect(ref.structured).toMatchObject({
      sha256: sha256Of("reference\n"),
      mtime: expect.stringMatching(/^\d{4}-/),
    });
  });

  it("a slice of a file over 256 KiB carries mtime and size, and its sha256 only with with_hash", async () => {
    const body = "0123456789abcdef\n".repeat(40_000);
    fs.writeFileSync(p("big.txt"), body);
    const mtime = new Date(Math.trunc(fs.statSync(p("big.txt")).mtimeMs)).toISOString();
    const slice = { file_path: "big.txt", start_line: 2, end_line: 4 };
    const plain = await conn.call("read_file", slice);
    expect(plain.structured).toMatchObject({ mtime, size: body.length });
    expect(plain.structured!.sha256).toBeUndefined();
    const asked = await conn.call("read_file", { ...slice, with_hash: true });
    expect(asked.structured).toMatchObject({ sha256: sha256Of(body), mtime, size: body.length });
  });

  it("keeps CRLF, the BOM and mode bits of every file it changes", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["edit_file", { old_string: "beta", new_string: "B\nb2" }, "alpha B b2 gamma"],
      ["append_file", { content: "delta\n" }, "alpha beta gamma delta"],
    ];
    for (const [tool, args, words] of cases) {
      const f = `crlf-${tool}.txt`;
      fs.writeFileSync(p(f), CRLF_BOM);
      fs.chmodSync(p(f), 0o750);
      const r = await conn.call(tool, { file_path: f, ...args });
      expect(r.isError, `${tool}: ${r.text}`).toBe(false);
      expect(fs.readFileSync(p(f), "utf8"), tool).toBe(`\uFEFF${words.split(" ").join("\r\n")}\r\n`);
      expect(mode(p(f)), tool).toBe(0o750);
    }
    fs.writeFileSync(p("mode.sh"), "x\n");
    fs.chmodSync(p("mode.sh"), 0o750);
    expect((await conn.call("save_file", { file_path: "mode.sh", content: "y\n" })).isError).toBe(false);
    expect(mode(p("mode.sh"))).toBe(0o750);
    expect(
      (await conn.call("move_file", { source_path: "mode.sh", destination_path: "m2.sh" })).isError,
    ).toBe(false);
    expect(mode(p("m2.sh"))).toBe(0o750);
  });

  it("never writes or deletes through a symlink to outside", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), p("out-file"));
    fs.symlinkSync(path.join(outside, "dir"), p("out-dir"));
    fs.writeFileSync(p("in.txt"), "inside\n");
    const before = snapshot(outside);
    const calls: [string, Record<string, unknown>][] = [
      ["save_file", { file_path: "out-file", content: "x" }],
      ["save_file", { file_path: "out-dir/new.txt", content: "x" }],
      ["append_file", { file_path: "out-file", content: "x" }],
      ["edit_file", { file_path: "out-file", old_string: "secret", new_string: "x" }],
      ["delete_this_file", { file_path: "out-dir/keep.txt" }],
      ["delete_directory", { dir_path: "out-dir" }],
      ["move_file", { source_path: "out-dir/keep.txt", destination_path: "moved.txt" }],
      ["move_file", { source_path: "in.txt", destination_path: "out-dir/in.txt" }],
    ];
    for (const [tool, args] of calls) {
      const r = await conn.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
      expect(r.text, tool).not.toContain(outside);
    }
    expect(snapshot(outside)).toEqual(before);
    expect(fs.readFileSync(p("in.txt"), "utf8")).toBe("inside\n");
  });

  it("audits every mutating tool it lists into its JSON log (no --audit-log)", async () => {
    fs.writeFileSync(p("au.txt"), "a\n");
    fs.mkdirSync(p("au-dir"));
    fs.writeFileSync(p("au.py"), "def f():\n    pass\n");
    fs.writeFileSync(
      p("nb.ipynb"),
      '{"cells":[{"cell_type":"markdown","id":"a1","metadata":{},"source":"hi"}],"metadata":{},"nbformat":4,"nbformat_minor":5}\n',
    );
    fs.writeFileSync(p("conf.json"), '{ "a": 1 }\n');
    fs.writeFileSync(p("lines.txt"), "one\ntwo\n");
    const calls: [string, Record<string, unknown>][] = [
      ["replace_symbol", { file_path: "au.py", name: "f", new_text: "def f():\n    return 1" }],
      ["insert_symbol", { file_path: "au.py", name: "f", position: "before", text: "def g():\n    pass" }],
      ["notebook_edit", { file_path: "nb.ipynb", edits: [{ cell: 0, source: "hello" }] }],
      ["edit_structured", { file_path: "conf.json", edits: [{ set: "a", value: 2 }] }],
      [
        "edit_lines",
        {
          file_path: "lines.txt",
          edits: [{ start_line: 2, end_line: 2, new_text: "TWO" }],
          expected_sha256: sha256Of("one\ntwo\n"),
        },
      ],
      ["save_file", { file_path: "au.txt", content: "a2\n" }],
      ["append_file", { file_path: "au.txt", content: "b\n" }],
      ["edit_file", { file_path: "au.txt", old_string: "b", new_string: "c" }],
      ["move_file", { source_path: "au.txt", destination_path: "au2.txt" }],
      ["delete_this_file", { file_path: "au2.txt" }],
      ["delete_directory", { dir_path: "au-dir" }],
    ];
    expect([...calls.map(([t]) => t), "undo_change"].sort()).toEqual(await mutatingTools(conn));
    for (const [tool, args] of calls) expect((await conn.call(tool, args)).isError, tool).toBe(false);
    const undone = await undoNewest(conn);
    const audits = workspaceLog()
      .map((l) => l.audit as Record<string, unknown> | undefined)
      .filter((a) => a !== undefined);
    expect(audits.find((a) => a.tool === "undo_change" && a.ok === true)).toMatchObject({
      op: "undo",
      path: "au-dir",
    });
    expect(audits.find((a) => a.tool === "delete_directory" && a.ok === true)).toMatchObject({
      changeId: undone,
    });
    for (const [tool] of calls)
      expect(
        audits.find((a) => a.tool === tool && a.ok === true),
        tool,
      ).toMatchObject({ path: expect.any(String), ms: expect.any(Number) });
    expect(audits.find((a) => a.tool === "save_file" && a.ok && a.path === "au.txt")).toMatchObject({
      op: "write",
      bytes: 3,
      before: sha256Of("a\n"),
      after: sha256Of("a2\n"),
    });
    expect(audits.find((a) => a.tool === "edit_file" && a.ok && a.path === "au.txt")).toMatchObject({
      before: sha256Of("a2\nb\n"),
      after: sha256Of("a2\nc\n"),
    });
  });
});

describe("workspace surface with --read-only", () => {
  it("lists none of the file-changing tools and refuses a call to one with the read-only message, changing nothing", async () => {
    const project = area.tree("ws-ro", { "f.txt": "keep\n" });
    const conn = await startServer(["--project-dir", project, "--console-only", "--read-only"]);
    try {
      expect(await mutatingTools(conn)).toEqual([]);
      const names = (await conn.client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(names).toContain("read_file");
      const calls: Record<string, Record<string, string>> = {
        save_file: { file_path: "f.txt", content: "x" },
        append_file: { file_path: "f.txt", content: "x" },
        edit_file: { file_path: "f.txt", old_string: "keep", new_string: "x" },
        delete_this_file: { file_path: "f.txt" },
        move_file: { source_path: "f.txt", destination_path: "g.txt" },
      };
      for (const [tool, args] of Object.entries(calls)) {
        const r = await conn.call(tool, args);
        expect(r.isError, tool).toBe(true);
        // move_file keeps the seed's simplified wording for a refused location.
        expect(r.text, tool).toContain(
          tool === "move_file"
            ? "Error executing tool move_file: Invalid path"
            : "Access denied - read-only location",
        );
      }
      expect(fs.readFileSync(path.join(project, "f.txt"), "utf8")).toBe("keep\n");
    } finally {
      await conn.close();
    }
  });
});
