/** Black-box: mcpfs's additions to the filesystem surface, through the SDK clients. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Of } from "../../src/core/fs/hash.js";
import { snapshot, tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
const root = area.tree("root", {});
const outside = area.tree("outside", { "secret.txt": "secret\n" });
const auditLog = path.join(area.base, "audit.jsonl");
afterAll(() => area.cleanup());

const p = (rel: string) => path.join(root, rel);
const read = (rel: string) => fs.readFileSync(p(rel), "utf8");
const put = (rel: string, text: string | Buffer) => {
  fs.mkdirSync(path.dirname(p(rel)), { recursive: true });
  fs.writeFileSync(p(rel), text);
};

describe.each(["v1", "v2"] as const)("filesystem additions with the %s client", (client) => {
  let conn: Connection;
  const dir = `${client}`;
  beforeAll(async () => {
    fs.mkdirSync(p(dir), { recursive: true });
    conn = await startServer([root, "--audit-log", auditLog], { client });
  });
  afterAll(async () => {
    await conn.close();
  });
  const f = (rel: string) => `${dir}/${rel}`;

  it("lists every new tool and parameter", async () => {
    const { tools } = await conn.client.listTools();
    const byName = new Map(tools.map((t: { name: string }) => [t.name, t]));
    for (const name of [
      "append_file",
      "copy_file",
      "delete_file",
      "delete_directory",
      "edit_files",
      "apply_patch",
    ])
      expect(byName.has(name), name).toBe(true);
    const props = (n: string) =>
      Object.keys((byName.get(n) as { inputSchema: { properties: object } }).inputSchema.properties);
    expect(props("read_text_file")).toEqual(expect.arrayContaining(["startLine", "endLine", "lineNumbers"]));
    expect(props("edit_file")).toContain("expectedSha256");
    expect(props("append_file")).toEqual(expect.arrayContaining(["mustExist", "expectedSha256"]));
    expect(props("delete_file")).toContain("expectedSha256");
    expect(props("delete_directory")).toContain("recursive");
    expect(props("copy_file")).toEqual(expect.arrayContaining(["source", "destination", "overwrite"]));
    expect(props("apply_patch")).toEqual(expect.arrayContaining(["patch", "directory", "fuzz", "dryRun"]));
    const editItems = (
      byName.get("edit_file") as { inputSchema: { properties: { edits: { items: { properties: object } } } } }
    ).inputSchema.properties.edits.items.properties;
    expect(Object.keys(editItems)).toContain("replaceAll");
  });

  it("read_text_file: line ranges, line numbers, and sha256/mtime/totalLines in every reply", async () => {
    const text = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
    put(f("lines.txt"), text);
    const r = await conn.call("read_text_file", {
      path: p(f("lines.txt")),
      startLine: 9,
      endLine: 11,
      lineNumbers: true,
    });
    expect(r.text).toBe(" 9→line 9\n10→line 10\n11→line 11");
    expect(r.structured).toMatchObject({ startLine: 9, endLine: 11, totalLines: 30, sha256: sha256Of(text) });
    const tailR = await conn.call("read_text_file", { path: p(f("lines.txt")), startLine: 29 });
    expect(tailR.text).toBe("line 29\nline 30");
    const past = await conn.call("read_text_file", { path: p(f("lines.txt")), startLine: 40, endLine: 50 });
    expect(past.text).toBe("[mcpfs: no lines from line 40; the file has 30 lines]");
    const whole = await conn.call("read_text_file", { path: p(f("lines.txt")) });
    expect(whole.text).toBe(text);
    expect(whole.structured).toMatchObject({ sha256: sha256Of(text), totalLines: 30 });
    expect(new Date(whole.structured!.mtime as string).getTime()).toBe(
      Math.trunc(fs.statSync(p(f("lines.txt"))).mtimeMs),
    );
    const tailN = await conn.call("read_text_file", { path: p(f("lines.txt")), tail: 2, lineNumbers: true });
    expect(tailN.text).toBe("29→line 29\n30→line 30");
    const bad = await conn.call("read_text_file", { path: p(f("lines.txt")), startLine: 3, head: 2 });
    expect(bad.isError).toBe(true);
    const bad2 = await conn.call("read_text_file", { path: p(f("lines.txt")), startLine: 5, endLine: 2 });
    expect(bad2.text).toContain("endLine (2) must be >= startLine (5)");
  });

  it("edit_file: replaceAll per edit, expectedSha256 refusal with a clear message, CRLF and BOM kept", async () => {
    put(f("e.txt"), "\uFEFFa = 1\r\nb = a\r\na again\r\n");
    const r0 = await conn.call("read_text_file", { path: p(f("e.txt")) });
    const sha = r0.structured!.sha256 as string;
    put(f("e.txt"), "\uFEFFa = 2\r\nb = a\r\na again\r\n");
    const refused = await conn.call("edit_file", {
      path: p(f("e.txt")),
      edits: [{ oldText: "a", newText: "x", replaceAll: true }],
      expectedSha256: sha,
    });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(`Refused: ${p(f("e.txt"))} changed since it was read`);
    expect(refused.text).toContain("Nothing was changed");
    expect(read(f("e.txt"))).toBe("\uFEFFa = 2\r\nb = a\r\na again\r\n");
    const fresh = (await conn.call("read_text_file", { path: p(f("e.txt")) })).structured!.sha256 as string;
    const ok = await conn.call("edit_file", {
      path: p(f("e.txt")),
      edits: [{ oldText: "a", newText: "x", replaceAll: true }],
      expectedSha256: fresh,
    });
    expect(ok.isError).toBe(false);
    expect(read(f("e.txt"))).toBe("\uFEFFx = 2\r\nb = x\r\nx xgxin\r\n");
  });

  it("append_file: creates, refuses with mustExist, keeps CRLF and mode bits", async () => {
    expect((await conn.call("append_file", { path: p(f("log.txt")), content: "one\n" })).text).toBe(
      `Successfully created ${p(f("log.txt"))}`,
    );
    fs.chmodSync(p(f("log.txt")), 0o640);
    await conn.call("append_file", { path: p(f("log.txt")), content: "two\n" });
    expect(read(f("log.txt"))).toBe("one\ntwo\n");
    expect(fs.statSync(p(f("log.txt"))).mode & 0o777).toBe(0o640);
    const missing = await conn.call("append_file", { path: p(f("nope.txt")), content: "x", mustExist: true });
    expect(missing.isError).toBe(true);
    expect(fs.existsSync(p(f("nope.txt")))).toBe(false);
    put(f("crlf.txt"), "a\r\n");
    await conn.call("append_file", { path: p(f("crlf.txt")), content: "b\nc\n" });
    expect(read(f("crlf.txt"))).toBe("a\r\nb\r\nc\r\n");
  });

  it("copy_file: file and tree, overwrite only when asked, never a link pointing out", async () => {
    put(f("src/a.txt"), "A\n");
    put(f("src/sub/b.sh"), "B\n");
    fs.chmodSync(p(f("src/sub/b.sh")), 0o755);
    fs.symlinkSync("a.txt", p(f("src/link")));
    const r = await conn.call("copy_file", { source: p(f("src")), destination: p(f("dst")) });
    expect(r.text).toContain("2 files");
    expect(read(f("dst/sub/b.sh"))).toBe("B\n");
    expect(fs.statSync(p(f("dst/sub/b.sh"))).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(p(f("dst/link")))).toBe("a.txt");
    const again = await conn.call("copy_file", {
      source: p(f("src/a.txt")),
      destination: p(f("dst/sub/b.sh")),
    });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("overwrite: true");
    await conn.call("copy_file", {
      source: p(f("src/a.txt")),
      destination: p(f("dst/sub/b.sh")),
      overwrite: true,
    });
    expect(read(f("dst/sub/b.sh"))).toBe("A\n");
    fs.symlinkSync(path.join(outside, "secret.txt"), p(f("src/out")));
    const out = await conn.call("copy_file", { source: p(f("src")), destination: p(f("dst2")) });
    expect(out.isError).toBe(true);
    expect(out.text).toContain("would point outside");
    expect(fs.existsSync(p(f("dst2")))).toBe(false);
    expect(out.text).not.toContain(outside);
  });

  it("delete_file and delete_directory: links as links, hash check, recursive, bounded report, roots refused", async () => {
    fs.mkdirSync(p(f("d/many")), { recursive: true });
    for (let i = 0; i < 30; i++) put(f(`d/many/f${String(i).padStart(2, "0")}.txt`), "x");
    fs.symlinkSync(outside, p(f("d/out-dir")));
    fs.symlinkSync(path.join(outside, "secret.txt"), p(f("out-file")));
    const outLink = await conn.call("delete_file", { path: p(f("out-file")) });
    expect(outLink.text).toContain("Access denied");
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("secret\n");
    put(f("target.txt"), "t");
    fs.symlinkSync("target.txt", p(f("in-link")));
    expect((await conn.call("delete_file", { path: p(f("in-link")) })).isError).toBe(false);
    expect(fs.existsSync(p(f("in-link")))).toBe(false);
    expect(read(f("target.txt"))).toBe("t");
    put(f("h.txt"), "v1");
    const wrong = await conn.call("delete_file", { path: p(f("h.txt")), expectedSha256: sha256Of("v0") });
    expect(wrong.text).toContain("changed since it was read");
    expect(
      (await conn.call("delete_file", { path: p(f("h.txt")), expectedSha256: sha256Of("v1") })).isError,
    ).toBe(false);
    const notEmpty = await conn.call("delete_directory", { path: p(f("d")) });
    expect(notEmpty.text).toContain("recursive: true");
    const r = await conn.call("delete_directory", { path: p(f("d")), recursive: true });
    expect(r.text).toMatch(/^Successfully deleted .* \(31 files, 2 directories\):/);
    expect(r.text).toContain("... and 13 more");
    expect(fs.existsSync(p(f("d")))).toBe(false);
    expect(fs.readdirSync(outside)).toContain("secret.txt");
    const rootDel = await conn.call("delete_directory", { path: root, recursive: true });
    expect(rootDel.isError).toBe(true);
    expect(fs.existsSync(root)).toBe(true);
  });

  it("edit_files: all or nothing, dry run shows the combined diff", async () => {
    put(f("m1.txt"), "one\ntwo\n");
    put(f("m2.txt"), "three\r\nfour\r\n");
    const files = [
      { path: p(f("m1.txt")), edits: [{ oldText: "two", newText: "TWO" }] },
      { path: p(f("m2.txt")), edits: [{ oldText: "four", newText: "FOUR" }] },
    ];
    const before = snapshot(p(dir));
    const dry = await conn.call("edit_files", { files, dryRun: true });
    expect(dry.text).toContain("-two\n+TWO");
    expect(dry.text).toContain("-four\n+FOUR");
    expect(snapshot(p(dir))).toEqual(before);
    const bad = await conn.call("edit_files", {
      files: [...files, { path: p(f("m1.txt")), edits: [] }]
        .slice(0, 2)
        .concat([{ path: p(f("missing.txt")), edits: [{ oldText: "a", newText: "b" }] }]),
    });
    expect(bad.isError).toBe(true);
    expect(snapshot(p(dir))).toEqual(before);
    const ok = await conn.call("edit_files", { files });
    expect(ok.isError).toBe(false);
    expect(read(f("m1.txt"))).toBe("one\nTWO\n");
    expect(read(f("m2.txt"))).toBe("three\r\nFOUR\r\n");
  });

  it("apply_patch: a git diff with several files, dry run, and per-hunk errors that change nothing", async () => {
    const g = p(f("repo"));
    fs.mkdirSync(g, { recursive: true });
    const git = (...a: string[]) =>
      execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...a], { cwd: g, encoding: "utf8" });
    fs.writeFileSync(path.join(g, "x.txt"), "a\nb\nc\n");
    fs.writeFileSync(path.join(g, "y.txt"), "1\n2\n3\n");
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "i");
    fs.writeFileSync(path.join(g, "x.txt"), "a\nB\nc\n");
    fs.writeFileSync(path.join(g, "y.txt"), "1\n2\n3\n4\n");
    fs.writeFileSync(path.join(g, "z.txt"), "new\n");
    git("add", "-A");
    const patch = git("diff", "--cached");
    git("reset", "-q", "--hard");
    fs.rmSync(path.join(g, "z.txt"), { force: true });
    const dry = await conn.call("apply_patch", { patch, directory: g, dryRun: true });
    expect(dry.text).toMatch(/^Patch applies cleanly \(dry run, nothing written\):/);
    expect(read(f("repo/x.txt"))).toBe("a\nb\nc\n");
    const done = await conn.call("apply_patch", { patch, directory: g });
    expect(done.text).toContain("Patch applied to 3 file(s)");
    expect(read(f("repo/x.txt"))).toBe("a\nB\nc\n");
    expect(read(f("repo/z.txt"))).toBe("new\n");
    const again = await conn.call("apply_patch", { patch, directory: g });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("The patch was not applied (nothing was changed)");
    expect(again.text).toContain("x.txt hunk #1");
    expect(read(f("repo/y.txt"))).toBe("1\n2\n3\n4\n");
  });
});

describe("read-only roots and --read-only", () => {
  it("refuses every mutating tool in a read-only root with one clear message", async () => {
    const rw = area.tree("rw", { "in-rw.txt": "rw\n" });
    const ro = area.tree("ro", { "f.txt": "keep\n", "d/x": "x" });
    const conn = await startServer([rw, "--read-only-dir", ro]);
    try {
      const before = snapshot(ro);
      const sha = sha256Of("keep\n");
      const f = path.join(ro, "f.txt");
      const calls: [string, Record<string, unknown>][] = [
        ["write_file", { path: f, content: "x", expectedSha256: sha }],
        ["move_file", { source: f, destination: path.join(ro, "moved.txt"), expectedSha256: sha }],
        ["move_file", { source: path.join(rw, "in-rw.txt"), destination: path.join(ro, "in.txt") }],
        ["create_directory", { path: path.join(ro, "new-dir") }],
        ["edit_file", { path: f, edits: [{ oldText: "keep", newText: "x" }], expectedSha256: sha }],
        ["append_file", { path: f, content: "x" }],
        ["copy_file", { source: f, destination: path.join(ro, "copy.txt") }],
        ["delete_file", { path: f, expectedSha256: sha }],
        ["delete_directory", { path: path.join(ro, "d"), recursive: true }],
        ["edit_files", { files: [{ path: f, edits: [{ oldText: "keep", newText: "x" }] }] }],
        ["apply_patch", { patch: "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-keep\n+x\n", directory: ro }],
      ];
      for (const [name, args] of calls) {
        const r = await conn.call(name, args);
        expect(r.isError, name).toBe(true);
        expect(r.text, name).toContain("Access denied - read-only location");
      }
      expect(snapshot(ro)).toEqual(before);
      expect(fs.readFileSync(path.join(rw, "in-rw.txt"), "utf8")).toBe("rw\n");
    } finally {
      await conn.close();
    }
  });

  it("--read-only hides every mutating tool and refuses a call to one with the read-only message", async () => {
    const conn = await startServer([root, "--read-only"]);
    put("kept.txt", "kept\n");
    try {
      const names = (await conn.client.listTools()).tools.map((t: { name: string }) => t.name);
      for (const n of [
        "edit_file",
        "append_file",
        "copy_file",
        "delete_file",
        "delete_directory",
        "edit_files",
        "apply_patch",
      ])
        expect(names).not.toContain(n);
      expect(names).toContain("read_text_file");
      // Unlisted, yet a client that calls one anyway gets the read-only refusal, and nothing changes.
      const before = snapshot(root);
      const calls: [string, Record<string, unknown>][] = [
        ["write_file", { path: p("kept.txt"), content: "x" }],
        ["edit_file", { path: p("kept.txt"), edits: [{ oldText: "kept", newText: "x" }] }],
        ["append_file", { path: p("kept.txt"), content: "x" }],
        ["create_directory", { path: p("new-dir") }],
        ["move_file", { source: p("kept.txt"), destination: p("moved.txt") }],
        ["copy_file", { source: p("kept.txt"), destination: p("copy.txt") }],
        ["delete_file", { path: p("kept.txt") }],
        ["edit_files", { files: [{ path: p("kept.txt"), edits: [{ oldText: "kept", newText: "x" }] }] }],
        [
          "apply_patch",
          { patch: "--- a/kept.txt\n+++ b/kept.txt\n@@ -1 +1 @@\n-kept\n+x\n", directory: root },
        ],
      ];
      for (const [name, args] of calls) {
        const r = await conn.call(name, args);
        expect(r.isError, name).toBe(true);
        expect(r.text, name).toContain("Access denied - read-only location");
      }
      expect(snapshot(root)).toEqual(before);
      expect(read("kept.txt")).toBe("kept\n");
    } finally {
      await conn.close();
    }
  });
});

describe("audit log", () => {
  it("has one JSON line per mutation with tool, path, bytes, hashes and duration, and refusals", () => {
    const lines = fs
      .readFileSync(auditLog, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const edit = lines.find((l) => l.tool === "edit_file" && l.ok);
    expect(edit).toMatchObject({
      op: "write",
      before: expect.stringMatching(/^[0-9a-f]{64}$/),
      after: expect.any(String),
    });
    expect(edit.bytes).toBeGreaterThan(0);
    expect(typeof edit.ms).toBe("number");
    expect(
      lines.some((l) => l.tool === "edit_file" && l.op === "refused" && /changed since/.test(l.error)),
    ).toBe(true);
    expect(lines.some((l) => l.tool === "append_file" && l.op === "create")).toBe(true);
    expect(lines.some((l) => l.tool === "copy_file" && l.from)).toBe(true);
    expect(lines.some((l) => l.tool === "delete_directory" && l.op === "delete")).toBe(true);
    expect(lines.filter((l) => l.tool === "apply_patch" && l.ok).length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.tool === "edit_files" && l.op === "write")).toBe(true);
    for (const l of lines) expect(l.time).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
