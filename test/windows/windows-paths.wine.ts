/**
 * The Windows pass: mcpfs's bundle under Wine with the Windows Node, every tool of both surfaces called with
 * Windows paths (drive letters in both cases, backslashes, forward and mixed slashes, file:///C:/, \\?\, UNC,
 * streams, device names, 8.3 names, the root in another case, .GIT), the official server as control for its
 * tools. Judged by effect: the files on disk (seen from Linux, below the prefix's drive_c) and what is not.
 * Wine's drive C is case-insensitive, as NTFS: mcpfs must learn that by its probe.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makePng } from "../../bench/lib/images.mjs";
import { REPO, startUnderWine, toWin, type WineConnection, type WineSetup, wineSetup } from "./wine.js";

/** The installed package (test/windows/installed-win32.ts), never the repository's dist/. */
const MCPFS = inject("mcpfsBin");
const OFFICIAL = path.join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

let setup: WineSetup;
let base: string; // Linux path of the run's directory below drive_c
let W: string; // its Windows spelling, C:\mcpfs-win\rN

function fixture(name: string): string {
  const dir = path.join(base, name);
  const files: Record<string, string | Buffer> = {
    "Docs/a.txt": "hello\n",
    "Foo.txt": "foo\n",
    "sub/b.txt": "bee\n",
    "img.png": PNG,
    ".git/config": "[core]\n\tbare = false\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    ".gitignore": "node_modules/\n*.log\n",
    "node_modules/x.js": "x\n",
    "Build.log": "log\n",
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

const read = (p: string) => fs.readFileSync(p, "utf8");

beforeAll(() => {
  setup = wineSetup();
  base = path.join(setup.prefix, "drive_c", "mcpfs-win", `r${process.pid}`);
  fs.rmSync(base, { recursive: true, force: true });
  W = toWin(base, setup);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** The spellings of one file that must all reach it (`winDir` is a root's Windows path). */
function spellings(winDir: string, rel: string): string[] {
  const back = `${winDir}\\${rel.split("/").join("\\")}`;
  const fwd = back.split("\\").join("/");
  return [
    back,
    `${back[0]!.toLowerCase()}${back.slice(1)}`, // c:\
    back.toUpperCase(), // every component in another case, root included
    fwd,
    back.replace(/\\([^\\]*)$/, "/$1"), // mixed
    `file:///${fwd}`,
    `\\\\?\\${back}`,
  ];
}

describe("filesystem surface under Windows", () => {
  let proj: string;
  let ro: string;
  let other: string;
  let mcpfs: WineConnection;
  let official: WineConnection;
  let P: string;
  let RO: string;

  beforeAll(async () => {
    proj = fixture("Proj");
    ro = fixture("RO");
    other = fixture("Other");
    P = `${W}\\Proj`;
    RO = `${W}\\RO`;
    [mcpfs, official] = await Promise.all([
      startUnderWine(setup, MCPFS, [P, "--read-only-dir", RO]),
      startUnderWine(setup, OFFICIAL, [P, RO]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mcpfs?.close(), official?.close()]);
  });

  it("reads a file by every Windows spelling the official server accepts, and more", async () => {
    const results: string[] = [];
    for (const p of spellings(P, "Docs/a.txt")) {
      const [m, o] = await Promise.all([
        mcpfs.call("read_text_file", { path: p }),
        official.call("read_text_file", { path: p }),
      ]);
      results.push(`${p}: mcpfs ${m.isError ? "refused" : "ok"}, official ${o.isError ? "refused" : "ok"}`);
      expect(m.isError, `${p}: ${m.text}`).toBe(false);
      expect(m.text).toBe("hello\n");
    }
    console.log(results.join("\n"));
  });

  it("refuses streams, device names, UNC and outside paths; touches nothing", async () => {
    const refused = [
      [`${P}\\Docs\\a.txt:s`, /alternate data stream/],
      [`${P}\\Docs\\a.txt::$DATA`, /alternate data stream/],
      [`${P}\\NUL`, /reserved device name/],
      [`${P}\\com1.txt`, /reserved device name/],
      [`${P}\\.git.`, /trailing dots/],
      [`\\\\.\\${P}`, /device namespace/],
      [`\\\\localhost\\C$\\${P.slice(3)}\\Foo.txt`, /outside allowed/],
      [`${W}\\Other\\Docs\\a.txt`, /outside allowed/],
      [`${P}\\..\\Other\\Docs\\a.txt`, /outside allowed/],
      [`${W}\\Proj2\\x.txt`, /outside allowed/],
    ] as const;
    for (const [p, why] of refused) {
      const r = await mcpfs.call("write_file", { path: p, content: "pwned" });
      expect(r.isError, p).toBe(true);
      expect(r.text, p).toMatch(why);
      const o = await official.call("read_text_file", { path: p });
      console.log(`${p}: mcpfs refused (${r.text.split(":")[0]}), official ${o.isError ? "refused" : "ok"}`);
    }
    expect(read(path.join(proj, "Docs/a.txt"))).toBe("hello\n");
    expect(read(path.join(other, "Docs/a.txt"))).toBe("hello\n");
    expect(fs.readdirSync(proj).filter((e) => /pwned|NUL|com1|\.git\.$|:/i.test(e))).toEqual([]);
    expect(fs.existsSync(path.join(base, "Proj2"))).toBe(false);
  });

  it("an 8.3-style name never reaches a place the long name would not", async () => {
    const r = await mcpfs.call("read_text_file", { path: `${W}\\PROJ~1\\Docs\\a.txt` });
    if (!r.isError) expect(r.text).toBe("hello\n");
    const o = await official.call("read_text_file", { path: `${W}\\PROJ~1\\Docs\\a.txt` });
    console.log(
      `8.3: mcpfs ${r.isError ? `refused (${r.text})` : "ok"}, official ${o.isError ? "refused" : "ok"}`,
    );
  });

  it("a read-only root spelled in another case stays read-only and cannot be moved", async () => {
    for (const p of [`${RO.toLowerCase()}\\new.txt`, `${RO.toUpperCase()}\\DOCS\\A.TXT`]) {
      const r = await mcpfs.call("write_file", { path: p, content: "x" });
      expect(r.isError, p).toBe(true);
      expect(r.text).toMatch(/read-only/);
    }
    const mv = await mcpfs.call("move_file", { source: RO.toLowerCase(), destination: `${P}\\moved` });
    expect(mv.isError).toBe(true);
    const del = await mcpfs.call("delete_directory", { path: `${RO.toUpperCase()}\\Docs`, recursive: true });
    expect(del.isError).toBe(true);
    expect(read(path.join(ro, "Docs/a.txt"))).toBe("hello\n");
    expect(fs.existsSync(path.join(proj, "moved"))).toBe(false);
  });

  it("every tool works with Windows paths (effects checked on disk)", async () => {
    const called = new Set<string>();
    const ok = async (tool: string, args: Record<string, unknown>) => {
      called.add(tool);
      const r = await mcpfs.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
      return r;
    };
    expect((await ok("read_text_file", { path: `${P}\\DOCS\\a.txt`, head: 1 })).text).toBe("hello");
    expect((await ok("read_file", { path: `c:/${P.slice(3)}/docs/A.TXT` })).text).toBe("hello\n");
    const multi = await ok("read_multiple_files", { paths: [`${P}\\Docs\\a.txt`, `${P}/sub\\b.txt`] });
    expect(multi.text).toContain("bee");
    const media = await ok("read_media_file", { path: `file:///${P.split("\\").join("/")}/IMG.PNG` });
    expect(media.structured ?? media.text).toBeTruthy();
    await ok("write_file", { path: `${P.toLowerCase()}\\New.txt`, content: "new\r\n" });
    expect(fs.readdirSync(proj)).toContain("New.txt");
    expect(read(path.join(proj, "New.txt"))).toBe("new\r\n");
    await ok("edit_file", { path: `${P}/Docs/a.txt`, edits: [{ oldText: "hello", newText: "bye" }] });
    expect(read(path.join(proj, "Docs/a.txt"))).toBe("bye\n");
    await ok("create_directory", { path: `\\\\?\\${P}\\made\\deep` });
    expect(fs.statSync(path.join(proj, "made/deep")).isDirectory()).toBe(true);
    expect((await ok("list_directory", { path: P.toUpperCase() })).text).toContain("[DIR] Docs");
    expect((await ok("list_directory_with_sizes", { path: `${P}/sub` })).text).toContain("b.txt");
    expect((await ok("directory_tree", { path: `c${P.slice(1)}` })).text).toContain("Docs");
    expect((await ok("search_files", { path: P, pattern: "**/*.txt" })).text).toContain("a.txt");
    expect((await ok("get_file_info", { path: `${P}\\docs\\A.TXT` })).text).toMatch(/size/i);
    expect((await ok("list_allowed_directories", {})).text).toContain("Proj");
    await ok("move_file", { source: `${P}\\Foo.txt`, destination: `${P}\\foo.txt` }); // case only
    expect(fs.readdirSync(proj)).toContain("foo.txt");
    expect(fs.readdirSync(proj)).not.toContain("Foo.txt");
    await ok("move_file", { source: `${P}\\foo.txt`, destination: `${P}/sub/FOO2.txt` });
    expect(read(path.join(proj, "sub/FOO2.txt"))).toBe("foo\n");
    expect((await ok("grep", { path: P, pattern: "bee" })).text).toContain("b.txt");
    await ok("append_file", { path: `${P}\\New.txt`, content: "more\n" });
    expect(read(path.join(proj, "New.txt"))).toBe("new\r\nmore\r\n");
    await ok("copy_file", { source: `${P}\\sub\\b.txt`, destination: `c:/${P.slice(3)}/sub/c.txt` });
    expect(read(path.join(proj, "sub/c.txt"))).toBe("bee\n");
    await ok("edit_files", {
      files: [{ path: `${P}\\sub\\c.txt`, edits: [{ oldText: "bee", newText: "sea" }] }],
    });
    expect(read(path.join(proj, "sub/c.txt"))).toBe("sea\n");
    const patch = "--- a/sub/b.txt\n+++ b/sub/b.txt\n@@ -1 +1 @@\n-bee\n+wasp\n";
    await ok("apply_patch", { patch, directory: P.toLowerCase() });
    expect(read(path.join(proj, "sub/b.txt"))).toBe("wasp\n");
    await ok("delete_file", { path: `${P}\\SUB\\C.TXT` });
    expect(fs.existsSync(path.join(proj, "sub/c.txt"))).toBe(false);
    await ok("delete_directory", { path: `${P}/MADE`, recursive: true });
    expect(fs.existsSync(path.join(proj, "made"))).toBe(false);
    // The undo journal under Windows (%LOCALAPPDATA%): the deleted tree comes back whole.
    const changes = await ok("list_changes", { path: P, limit: 5 });
    expect(changes.text).toContain("delete_directory");
    const last = (changes.structured as { changes: { id: string }[] }).changes[0]!;
    await ok("undo_change", { id: last.id });
    expect(fs.readdirSync(proj)).toContain("made");
    expect(fs.statSync(path.join(proj, "made/deep")).isDirectory()).toBe(true);
    // The code tools: the parser worker and its WebAssembly grammars under the Windows Node.
    fs.writeFileSync(
      path.join(proj, "lib.ts"),
      "export function area(r: number): number {\r\n  return r * r;\r\n}\r\n",
    );
    expect((await ok("outline", { path: `${P}\\LIB.TS` })).text).toMatch(/function area/);
    expect((await ok("find_symbol", { name: "area", path: P })).text).toContain("lib.ts");
    expect((await ok("read_symbol", { path: `${P}/lib.ts`, name: "area" })).text).toContain("r * r");
    expect((await ok("find_references", { name: "area", path: P })).text).toContain("lib.ts");
    expect((await ok("repo_map", { path: P })).text).toContain("lib.ts");
    await ok("insert_symbol", {
      path: `${P}\\lib.ts`,
      name: "area",
      position: "after",
      text: "export const unit = 1;",
    });
    await ok("replace_symbol", {
      path: `${P}\\lib.ts`,
      name: "area",
      newText: "export function area(r: number): number {\r\n  return 3 * r * r;\r\n}",
    });
    expect(read(path.join(proj, "lib.ts"))).toContain("3 * r * r");
    expect(read(path.join(proj, "lib.ts"))).toContain("export const unit = 1;");
    // The structured edits and read_document (its worker) under the Windows Node; CRLF kept.
    fs.writeFileSync(
      path.join(proj, "nb.ipynb"),
      '{"cells":[{"cell_type":"markdown","id":"a1","metadata":{},"source":"hi"}],"metadata":{},"nbformat":4,"nbformat_minor":5}\r\n',
    );
    fs.writeFileSync(path.join(proj, "conf.json"), '{ "a": 1 }\r\n');
    fs.writeFileSync(path.join(proj, "lines.txt"), "one\r\ntwo\r\n");
    fs.writeFileSync(path.join(proj, "t.csv"), "name,n\r\nbee,2\r\n");
    expect((await ok("notebook_read", { path: `${P}\\NB.IPYNB` })).text).toContain("hi");
    await ok("notebook_edit", { path: `${P}\\nb.ipynb`, edits: [{ cell: 0, source: "hello" }] });
    expect(read(path.join(proj, "nb.ipynb"))).toContain('"hello"');
    expect((await ok("read_structured", { path: `${P}/CONF.JSON`, query: "a" })).text).toContain("1");
    await ok("edit_structured", { path: `${P}\\conf.json`, edits: [{ set: "a", value: 2 }] });
    expect(read(path.join(proj, "conf.json"))).toBe('{ "a": 2 }\r\n');
    const sha = createHash("sha256").update("one\r\ntwo\r\n").digest("hex");
    await ok("edit_lines", {
      path: `${P}\\LINES.TXT`,
      edits: [{ startLine: 2, endLine: 2, newText: "TWO" }],
      expectedSha256: sha,
    });
    expect(read(path.join(proj, "lines.txt"))).toBe("one\r\nTWO\r\n");
    expect((await ok("read_document", { path: `${P}\\T.CSV` })).text).toContain("bee");
    const listed = await mcpfs.tools();
    expect(listed.filter((t) => !called.has(t))).toEqual([]);
  });

  it("the official server's tools under Windows, as control", async () => {
    const lines: string[] = [];
    const both = async (tool: string, args: Record<string, unknown>) => {
      const [m, o] = await Promise.all([mcpfs.call(tool, args), official.call(tool, args)]);
      lines.push(
        `${tool}: mcpfs ${m.isError ? `error (${m.text})` : "ok"}, official ${o.isError ? `error (${o.text})` : "ok"}`,
      );
      // Drop-in: what the official server does, mcpfs does.
      if (!o.isError) expect(m.isError, `${tool}: ${m.text}`).toBe(false);
    };
    await both("get_file_info", { path: `c:\\${P.slice(3)}\\Docs\\a.txt` });
    await both("list_directory", { path: P.toLowerCase() });
    await both("search_files", { path: P, pattern: "*.txt" });
    await both("directory_tree", { path: P });
    await both("list_allowed_directories", {});
    await both("read_multiple_files", { paths: [`${P}/Docs/a.txt`] });
    await both("read_media_file", { path: `${P}\\img.png` });
    console.log(lines.join("\n"));
  });
});

describe("workspace surface under Windows", () => {
  let proj: string;
  let ws: WineConnection;

  beforeAll(async () => {
    proj = fixture("WsProj");
    fixture("WsRef");
    ws = await startUnderWine(setup, MCPFS, [
      "--project-dir",
      `${W}\\WsProj`,
      "--reference-project",
      `ref=${W.toLowerCase()}\\wsref`,
      "--console-only",
    ]);
  });
  afterAll(async () => {
    await ws?.close();
  });

  it(".GIT is the repository: it cannot be moved out, deleted or written", async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ["move_file", { source_path: ".GIT", destination_path: "x" }],
      ["move_file", { source_path: ".Git\\config", destination_path: "config" }],
      ["delete_directory", { dir_path: ".GIT", recursive: true }],
      ["delete_this_file", { file_path: ".GIT\\HEAD" }],
      ["save_file", { file_path: ".GIT\\hooks\\post-checkout", content: "#!/bin/sh\n" }],
      ["save_file", { file_path: "NODE_MODULES\\y.js", content: "y" }],
      ["read_file", { file_path: "Node_Modules/x.js" }],
      ["read_file", { file_path: "build.LOG" }],
      ["move_file", { source_path: "Foo.txt", destination_path: ".GIT\\Foo.txt" }],
    ];
    for (const [tool, args] of attempts) {
      const r = await ws.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    }
    expect(read(path.join(proj, ".git/config"))).toContain("bare = false");
    expect(read(path.join(proj, ".git/HEAD"))).toContain("main");
    expect(fs.existsSync(path.join(proj, ".git/hooks"))).toBe(false);
    expect(fs.existsSync(path.join(proj, "x"))).toBe(false);
    expect(fs.existsSync(path.join(proj, "node_modules/y.js"))).toBe(false);
    expect(read(path.join(proj, "Foo.txt"))).toBe("foo\n");
  });

  it("every tool answers with Windows paths (effects checked on disk)", async () => {
    const called = new Set<string>();
    const call = async (tool: string, args: Record<string, unknown>, mustSucceed = true) => {
      called.add(tool);
      const r = await ws.call(tool, args);
      if (mustSucceed) expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(false);
      return r;
    };
    expect((await call("read_file", { file_path: "docs\\A.TXT" })).text).toContain("hello");
    await call("save_file", { file_path: "New\\w.txt", content: "w\n" });
    expect(read(path.join(proj, "New/w.txt"))).toBe("w\n");
    await call("append_file", { file_path: "new/W.TXT", content: "v\n" });
    expect(read(path.join(proj, "New/w.txt"))).toBe("w\nv\n");
    await call("edit_file", { file_path: "Docs/a.txt", old_string: "hello", new_string: "bye" });
    expect(read(path.join(proj, "Docs/a.txt"))).toBe("bye\n");
    const listing = (await call("list_directory", {})).text;
    expect(listing).toContain("Docs");
    expect(listing).not.toMatch(/\.git\/|node_modules/);
    expect((await call("search_files", { glob: "**/*.txt" })).text).toContain("a.txt");
    await call("move_file", { source_path: "Foo.txt", destination_path: "foo.txt" }); // case only
    expect(fs.readdirSync(proj)).toContain("foo.txt");
    expect(fs.readdirSync(proj)).not.toContain("Foo.txt");
    await call("move_file", { source_path: "foo.txt", destination_path: "Sub\\moved.txt" });
    expect(read(path.join(proj, "sub/moved.txt"))).toBe("foo\n");
    await call("delete_this_file", { file_path: "SUB\\MOVED.TXT" });
    expect(fs.existsSync(path.join(proj, "sub/moved.txt"))).toBe(false);
    await call("delete_directory", { dir_path: "new", recursive: true });
    expect(fs.existsSync(path.join(proj, "New"))).toBe(false);
    // Undo under Windows: the folder deleted as `new` comes back as it was named on disk, `New`.
    const changes = await call("list_changes", { limit: 1 });
    const id = /^(\S+)\s+\S+\s+delete_directory/m.exec(changes.text)?.[1];
    expect(id, changes.text).toBeDefined();
    await call("undo_change", { id });
    expect(fs.readdirSync(proj)).toContain("New");
    expect(fs.existsSync(path.join(proj, "New/w.txt"))).toBe(true);
    await call("check_file_size", {});
    fs.writeFileSync(path.join(proj, "lib.py"), "def area(r):\r\n    return r * r\r\n");
    expect((await call("outline", { file_path: "LIB.PY" })).text).toMatch(/area/);
    expect((await call("find_symbol", { name: "area" })).text).toContain("lib.py");
    expect((await call("read_symbol", { file_path: "lib.py", name: "area" })).text).toContain("r * r");
    expect((await call("find_references", { name: "area" })).text).toContain("lib.py");
    expect((await call("repo_map", {})).text).toContain("lib.py");
    await call("insert_symbol", { file_path: "lib.py", name: "area", position: "after", text: "UNIT = 1" });
    await call("replace_symbol", {
      file_path: "lib.py",
      name: "area",
      new_text: "def area(r):\r\n    return 3 * r * r",
    });
    expect(read(path.join(proj, "lib.py"))).toContain("3 * r * r");
    expect(read(path.join(proj, "lib.py"))).toContain("UNIT = 1");
    fs.writeFileSync(
      path.join(proj, "nb2.ipynb"),
      '{"cells":[{"cell_type":"markdown","id":"a1","metadata":{},"source":"hi"}],"metadata":{},"nbformat":4,"nbformat_minor":5}\r\n',
    );
    fs.writeFileSync(path.join(proj, "conf2.json"), '{ "a": 1 }\r\n');
    fs.writeFileSync(path.join(proj, "lines2.txt"), "one\r\ntwo\r\n");
    fs.writeFileSync(path.join(proj, "t2.csv"), "name,n\r\nbee,2\r\n");
    fs.writeFileSync(path.join(proj, "wide.png"), makePng(3200, 100));
    expect((await call("notebook_read", { file_path: "NB2.IPYNB" })).text).toContain("hi");
    await call("notebook_edit", { file_path: "nb2.ipynb", edits: [{ cell: 0, source: "hello" }] });
    expect(read(path.join(proj, "nb2.ipynb"))).toContain('"hello"');
    expect((await call("read_structured", { file_path: "CONF2.JSON", query: "a" })).text).toContain("1");
    await call("edit_structured", { file_path: "conf2.json", edits: [{ set: "a", value: 2 }] });
    expect(read(path.join(proj, "conf2.json"))).toBe('{ "a": 2 }\r\n');
    await call("edit_lines", {
      file_path: "LINES2.TXT",
      edits: [{ start_line: 2, end_line: 2, new_text: "TWO" }],
      expected_sha256: createHash("sha256").update("one\r\ntwo\r\n").digest("hex"),
    });
    expect(read(path.join(proj, "lines2.txt"))).toBe("one\r\nTWO\r\n");
    expect((await call("read_document", { file_path: "T2.CSV" })).text).toContain("bee");
    // The image codecs (the document worker's WASM) under the Windows Node: scaled to 1568 px.
    const img = await call("read_image", { file_path: "WIDE.PNG" });
    expect(img.structured).toMatchObject({ resized: { width: 1568, height: 49, mimeType: "image/png" } });
    expect((await call("get_reference_projects", {})).text).toContain("ref");
    expect((await call("list_reference_directory", { reference_name: "ref" })).text).toContain("Docs");
    expect(
      (await call("read_reference_file", { reference_name: "ref", file_path: "DOCS\\a.txt" })).text,
    ).toContain("hello");
    expect(
      (await call("search_reference_files", { reference_name: "ref", glob: "**/*.txt" })).text,
    ).toContain("a.txt");
    // Tools that need git or GitHub: answered (an error without git for Windows or a token), never a hang.
    for (const [tool, args] of [
      ["git", { command: "status" }],
      ["get_base_branch", {}],
      ["check_branch_status", { ci_timeout: 0 }],
      ["github_issue_view", { number: 1 }],
      ["github_issue_list", {}],
      ["github_pr_view", { number: 1 }],
      ["github_search", { query: "x" }],
      ["github_issue_create", { title: "t" }],
      ["github_issue_edit", { number: 1 }],
      ["github_issue_comment", { number: 1, body: "b" }],
      ["github_label_list", {}],
      ["github_pr_create", { title: "t" }],
    ] as const) {
      await call(tool, args, false);
    }
    expect((await ws.tools()).filter((t) => !called.has(t))).toEqual([]);
    // Still answering after all that.
    expect((await ws.call("read_file", { file_path: "Docs\\a.txt" })).text).toContain("bye");
  });
});
