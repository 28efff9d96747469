/**
 * The Windows pass, 8.3 short names: every path-taking tool of both surfaces called with the short name of
 * a gitignored file, of `.git` and of a read-only root nested in the writable one, as the LAST component (the
 * component the server keeps as an entry's own name). Wine emulates short names (a hash: `.git` is
 * `_GIT~IBP`), learnt here from `cmd /c dir /x /a`. Judged by effect: the secret absent from every reply,
 * `.git` and the read-only root byte-identical, no file moved, made or removed where a rule forbids it.
 * Plus the symlink cases: Unix symlinks made from Linux, which Windows programs under Wine see as plain
 * entries that lead elsewhere (realpath follows them).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startUnderWine, toWin, type WineConnection, type WineSetup, wineSetup } from "./wine.js";

const MCPFS = path.join(REPO, "dist/bundle/mcpfs.js");
const SECRET = "SECRET_TOKEN_8d3";

let setup: WineSetup;
let base: string;

/** The short names Wine gives the entries of `dir` (long name -> short name), from `cmd /c dir /x /a`. */
function shortNames(dir: string): Map<string, string> {
  const r = spawnSync(setup.wine, ["cmd", "/c", "dir", "/x", "/a", toWin(dir, setup)], {
    env: { ...process.env, WINEDEBUG: "-all" },
    encoding: "utf8",
    timeout: 120_000,
  });
  const out = new Map<string, string>();
  for (const line of (r.stdout ?? "").split(/\r?\n/)) {
    const t = line.trim().split(/\s+/);
    if (t.length >= 5 && t.at(-2)!.includes("~")) out.set(t.at(-1)!, t.at(-2)!);
  }
  return out;
}

function tree(dir: string): string {
  const lines: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = `${rel}/${e.name}`;
      if (e.isSymbolicLink()) lines.push(`l ${r} -> ${fs.readlinkSync(path.join(d, e.name))}`);
      else if (e.isDirectory()) {
        lines.push(`d ${r}`);
        walk(path.join(d, e.name), r);
      } else lines.push(`f ${r} ${fs.readFileSync(path.join(d, e.name), "utf8")}`);
    }
  };
  walk(dir, "");
  return lines.join("\n");
}

function fixture(dir: string, extra: Record<string, string> = {}): void {
  const files: Record<string, string> = {
    ".env": `${SECRET}\n`,
    ".gitignore": ".env\nsecrets-folder/\n",
    "secrets-folder/key.txt": `${SECRET}\n`,
    ".git/config": "[core]\n\tbare = false\n",
    ".git/HEAD": "ref: refs/heads/main\n",
    "vendorlib/lib.txt": "vendor\n",
    "notes-long-name.txt": "notes\n",
    ...extra,
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
}

beforeAll(() => {
  setup = wineSetup();
  base = path.join(setup.prefix, "drive_c", "mcpfs-win", `s${process.pid}`);
  fs.rmSync(base, { recursive: true, force: true });
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** Every reply of the run, to judge that the secret never reached the client. */
function recorder(conn: WineConnection) {
  const replies: string[] = [];
  const texts: string[] = [];
  return {
    replies,
    /** What the server answered, without the arguments echoed in `replies`. */
    texts,
    async call(tool: string, args: Record<string, unknown>) {
      const r = await conn.call(tool, args);
      replies.push(`${tool} ${JSON.stringify(args)} -> ${r.isError ? "error" : "ok"}: ${r.text}`);
      texts.push(`${r.text}\n${JSON.stringify(r.structured ?? {})}`);
      return r;
    },
  };
}

describe("8.3 short names on the filesystem surface", () => {
  let proj: string;
  let P: string;
  let S: Map<string, string>;
  let mcpfs: WineConnection;

  beforeAll(async () => {
    proj = path.join(base, "FsProj");
    fixture(proj);
    P = toWin(proj, setup);
    S = shortNames(proj);
    mcpfs = await startUnderWine(setup, MCPFS, [P, "--read-only-dir", `${P}\\vendorlib`]);
  });
  afterAll(async () => {
    await mcpfs?.close();
  });

  it("Wine gives the entries short names", () => {
    for (const long of [".git", ".env", "vendorlib", "notes-long-name.txt"])
      expect(S.get(long), `${long}: ${[...S]}`).toMatch(/~/);
  });

  it("a short name of .git or of a read-only root changes nothing, whatever the tool", async () => {
    const before = tree(proj);
    const git = `${P}\\${S.get(".git")}`;
    const ro = `${P}\\${S.get("vendorlib")}`;
    const c = recorder(mcpfs);
    const attempts: [string, Record<string, unknown>][] = [
      ["move_file", { source: git, destination: `${P}\\moved-git` }],
      ["move_file", { source: ro, destination: `${P}\\moved-ro` }],
      ["move_file", { source: `${P}\\notes-long-name.txt`, destination: `${git}\\notes.txt` }],
      ["delete_directory", { path: git, recursive: true }],
      ["delete_directory", { path: ro, recursive: true }],
      ["delete_file", { path: `${git}\\HEAD` }],
      ["delete_file", { path: `${ro}\\lib.txt` }],
      ["write_file", { path: `${git}\\config`, content: "pwned" }],
      ["write_file", { path: `${ro}\\lib.txt`, content: "pwned" }],
      ["append_file", { path: `${git}\\HEAD`, content: "pwned" }],
      ["edit_file", { path: `${ro}\\lib.txt`, edits: [{ oldText: "vendor", newText: "pwned" }] }],
      ["edit_files", { files: [{ path: `${git}\\HEAD`, edits: [{ oldText: "main", newText: "pwned" }] }] }],
      ["create_directory", { path: `${git}\\hooks` }],
      ["create_directory", { path: `${ro}\\made` }],
      ["copy_file", { source: `${P}\\notes-long-name.txt`, destination: `${git}\\hooks\\post-checkout` }],
      ["copy_file", { source: `${P}\\notes-long-name.txt`, destination: `${ro}\\copied.txt` }],
      [
        "apply_patch",
        { patch: "--- a/lib.txt\n+++ b/lib.txt\n@@ -1 +1 @@\n-vendor\n+pwned\n", directory: ro },
      ],
    ];
    for (const [tool, args] of attempts) {
      const r = await c.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    }
    expect(tree(proj), c.replies.join("\n")).toBe(before);
  });

  it("a move by short name is recorded, listed and undone under the stored name", async () => {
    const short = S.get("notes-long-name.txt")!;
    const c = recorder(mcpfs);
    const mv = await c.call("move_file", { source: `${P}\\${short}`, destination: `${P}\\renamed.txt` });
    expect(mv.isError, mv.text).toBe(false);
    const listed = await c.call("list_changes", { path: `${P}\\notes-long-name.txt` });
    expect(listed.text, c.replies.join("\n")).toContain("move_file");
    expect(listed.text).toContain("notes-long-name.txt");
    const id = (listed.structured as { changes: { id: string }[] }).changes[0]!.id;
    const undo = await c.call("undo_change", { id });
    expect(undo.isError, undo.text).toBe(false);
    expect(fs.readdirSync(proj)).toContain("notes-long-name.txt");
    expect(fs.readdirSync(proj).filter((n) => n.includes("~"))).toEqual([]);
    // A change below a directory is found by the directory's short name.
    const w = await c.call("write_file", { path: `${P}\\notes-long-name.txt`, content: "edited\n" });
    expect(w.isError, w.text).toBe(false);
    const byShort = await c.call("list_changes", { path: `${P}\\${short}`, limit: 1 });
    expect(byShort.text, c.replies.join("\n")).toContain("write_file");
  });
});

describe("8.3 short names on the workspace surface", () => {
  let proj: string;
  let other: string;
  let S: Map<string, string>;
  let ws: WineConnection;

  beforeAll(async () => {
    proj = path.join(base, "WsProj");
    other = path.join(base, "Outside");
    fixture(proj);
    fixture(other, { "outside-only.txt": `${SECRET}\n` });
    // Links made from Linux: under Wine, Windows programs see plain entries that realpath follows.
    fs.symlinkSync(other, path.join(proj, "outside-dir-link"));
    fs.symlinkSync(path.join(other, ".env"), path.join(proj, "outside-file-link.txt"));
    fs.symlinkSync(".env", path.join(proj, "env-link.txt"));
    fs.symlinkSync(".git", path.join(proj, "git-link"));
    S = shortNames(proj);
    ws = await startUnderWine(setup, MCPFS, ["--project-dir", toWin(proj, setup), "--console-only"]);
  });
  afterAll(async () => {
    await ws?.close();
  });

  it("a short name never reaches an ignored file or .git, whatever the tool", async () => {
    const before = tree(proj);
    const env = S.get(".env")!;
    const git = S.get(".git")!;
    const secrets = S.get("secrets-folder")!;
    const c = recorder(ws);
    const attempts: [string, Record<string, unknown>][] = [
      ["read_file", { file_path: env }],
      ["read_file", { file_path: `${secrets}\\key.txt` }],
      ["read_file", { file_path: `${git}\\config` }],
      ["move_file", { source_path: env, destination_path: "notes.txt" }],
      ["move_file", { source_path: secrets, destination_path: "public" }],
      ["move_file", { source_path: git, destination_path: "moved-git" }],
      ["move_file", { source_path: "notes-long-name.txt", destination_path: `${git}\\n.txt` }],
      ["delete_this_file", { file_path: env }],
      ["delete_this_file", { file_path: `${git}\\HEAD` }],
      ["delete_directory", { dir_path: git, recursive: true }],
      ["delete_directory", { dir_path: secrets, recursive: true }],
      ["save_file", { file_path: env, content: "overwritten" }],
      ["save_file", { file_path: `${git}\\hooks\\post-checkout`, content: "#!/bin/sh\n" }],
      ["append_file", { file_path: env, content: "more" }],
      ["edit_file", { file_path: env, old_string: SECRET.slice(0, 6), new_string: "gone" }],
    ];
    for (const [tool, args] of attempts) {
      const r = await c.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    }
    // Listings and searches may answer, never with what the rules hide.
    for (const dir of [secrets, git]) {
      const r = await c.call("list_directory", { path: dir });
      expect(r.text).not.toMatch(/key\.txt|HEAD|config/);
    }
    await c.call("search_files", { pattern: "SECRET_TOKEN_[0-9a-f]+" });
    const all = c.replies.join("\n");
    expect(c.texts.join("\n"), all).not.toContain(SECRET);
    expect(tree(proj), all).toBe(before);
    expect(fs.existsSync(path.join(proj, "notes.txt"))).toBe(false);
  });

  it("links made outside Windows lead nowhere a rule forbids, by any name", async () => {
    const before = tree(other);
    const c = recorder(ws);
    const attempts: [string, Record<string, unknown>][] = [
      ["read_file", { file_path: "outside-dir-link\\notes-long-name.txt" }],
      ["read_file", { file_path: "outside-file-link.txt" }],
      ["read_file", { file_path: S.get("outside-file-link.txt")! }],
      ["read_file", { file_path: "env-link.txt" }],
      ["read_file", { file_path: S.get("env-link.txt")! }],
      ["read_file", { file_path: "git-link\\config" }],
      ["list_directory", { path: "outside-dir-link" }],
      ["save_file", { file_path: "outside-dir-link\\planted.txt", content: "x" }],
      ["save_file", { file_path: `${S.get("outside-dir-link")}\\planted.txt`, content: "x" }],
      ["save_file", { file_path: "git-link\\hooks\\pre-commit", content: "x" }],
      ["delete_directory", { dir_path: "outside-dir-link", recursive: true }],
      ["delete_directory", { dir_path: S.get("outside-dir-link")!, recursive: true }],
    ];
    for (const [tool, args] of attempts) {
      const r = await c.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}: ${r.text}`).toBe(true);
    }
    // Walks never enter them: no name or line from outside.
    await c.call("list_directory", {});
    await c.call("search_files", { glob: "**/*.txt" });
    await c.call("search_files", { pattern: "SECRET_TOKEN_[0-9a-f]+" });
    expect(c.texts.join("\n"), c.replies.join("\n")).not.toContain("outside-only");
    const all = c.replies.join("\n");
    expect(c.texts.join("\n"), all).not.toContain(SECRET);
    expect(tree(other), all).toBe(before);
    expect(fs.existsSync(path.join(proj, ".git/hooks"))).toBe(false);
  });
});
