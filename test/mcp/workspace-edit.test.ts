/** Workspace surface: edit_file in both shapes (old_string/new_string and edits[]), black-box. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-wsedit-");
const project = area.tree("project", { ".gitignore": "*.log\n", "x.log": "a\n" });
const p = (rel: string) => path.join(project, rel);
const put = (rel: string, text: string | Buffer) => fs.writeFileSync(p(rel), text);
const get = (rel: string) => fs.readFileSync(p(rel), "utf8");
const err = (msg: string) => `Error executing tool edit_file: ${msg}`;

let conn: Connection;
beforeAll(async () => {
  conn = await startServer(["--project-dir", project, "--console-only"]);
});
afterAll(async () => {
  await conn.close();
  area.cleanup();
});

describe("edit_file with old_string / new_string", () => {
  it("replaces a unique match and answers a git-style unified diff", async () => {
    put("c.py", "a = 1\nDEBUG = False\nb = 2\n");
    const r = await conn.call("edit_file", {
      file_path: "c.py",
      old_string: "DEBUG = False",
      new_string: "DEBUG = True",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      "--- a/c.py\n+++ b/c.py\n@@ -1,3 +1,3 @@\n a = 1\n-DEBUG = False\n+DEBUG = True\n b = 2\n",
    );
    expect(get("c.py")).toBe("a = 1\nDEBUG = True\nb = 2\n");
  });

  it("refuses an ambiguous match naming the count, and replaces all with replace_all", async () => {
    put("m.txt", "foo\nfoo\nfoo\n");
    const r = await conn.call("edit_file", { file_path: "m.txt", old_string: "foo", new_string: "bar" });
    expect(r.text).toBe(
      err(
        "Multiple matches (3) found for foo. Use replace_all=True to replace all occurrences, or provide more context to create a unique match.",
      ),
    );
    expect(get("m.txt")).toBe("foo\nfoo\nfoo\n");
    const all = await conn.call("edit_file", {
      file_path: "m.txt",
      old_string: "foo",
      new_string: "bar",
      replace_all: true,
    });
    expect(all.isError).toBe(false);
    expect(get("m.txt")).toBe("bar\nbar\nbar\n");
  });

  it("detects an already applied edit (both rules) without writing", async () => {
    put("ap.txt", "hello world\n");
    const before = fs.statSync(p("ap.txt")).mtimeMs;
    expect(
      (await conn.call("edit_file", { file_path: "ap.txt", old_string: "hi", new_string: "hello" })).text,
    ).toBe(
      "No changes needed - edit already applied: old_string not found, new_string found at line 1. " +
        "Nothing was changed; if that is not your edit, read the file and retry.",
    );
    expect(
      (await conn.call("edit_file", { file_path: "ap.txt", old_string: "hello", new_string: "hello world" }))
        .text,
    ).toBe(
      "No changes needed - edit already applied: the text at old_string's match (line 1) already reads " +
        "new_string. Nothing was changed; if that is not your edit, read the file and retry.",
    );
    expect(fs.statSync(p("ap.txt")).mtimeMs).toBe(before);
    // new_string merely occurring somewhere is reported as exactly that, with its line.
    put("far.txt", "one\ntwo\nreturn x;\n");
    const far = await conn.call("edit_file", {
      file_path: "far.txt",
      old_string: "return y;",
      new_string: "x",
    });
    expect(far.text).toContain("old_string not found, new_string found at line 3. Nothing was changed");
    expect(get("far.txt")).toBe("one\ntwo\nreturn x;\n");
  });

  it("reports text not found, with the backslash hint when the file stores doubled backslashes", async () => {
    put("nf.txt", 'path = "C:\\\\temp"\n');
    expect(
      (await conn.call("edit_file", { file_path: "nf.txt", old_string: "zzz", new_string: "y" })).text,
    ).toBe(err("Text not found in nf.txt: zzz"));
    const r = await conn.call("edit_file", {
      file_path: "nf.txt",
      old_string: 'path = "C:\\temp"',
      new_string: "x",
    });
    expect(r.text).toBe(
      err(
        'Text not found: path = "C:\\temp"\nHint: file may store backslashes as `\\\\` (double backslashes) — use double backslashes in both `old_string` and `new_string`.',
      ),
    );
    const long = "q".repeat(80);
    expect(
      (await conn.call("edit_file", { file_path: "nf.txt", old_string: long, new_string: "y" })).text,
    ).toBe(err(`Text not found in nf.txt: ${"q".repeat(47)}...`));
  });

  it("matches exactly only: no whitespace-tolerant match on this surface", async () => {
    put("ws.py", "def f():\n    return 1\n");
    const r = await conn.call("edit_file", {
      file_path: "ws.py",
      old_string: "return 1\n  ",
      new_string: "return 2",
    });
    expect(r.isError).toBe(true);
    const r2 = await conn.call("edit_file", {
      file_path: "ws.py",
      old_string: "  return 1",
      new_string: "  return 2",
    });
    expect(r2.isError).toBe(false);
    expect(get("ws.py")).toBe("def f():\n    return 2\n");
  });

  it("inserts at the beginning for an empty old_string", async () => {
    put("pre.txt", "body\n");
    const r = await conn.call("edit_file", {
      file_path: "pre.txt",
      old_string: "",
      new_string: "# header\n",
    });
    expect(r.text).toBe("--- a/pre.txt\n+++ b/pre.txt\n@@ -1 +1,2 @@\n+# header\n body\n");
    expect(get("pre.txt")).toBe("# header\nbody\n");
  });

  it("keeps CRLF line endings and the BOM", async () => {
    put("w.txt", "\uFEFFone\r\ntwo\r\nthree\r\n");
    const r = await conn.call("edit_file", {
      file_path: "w.txt",
      old_string: "two\nthree",
      new_string: "2\n3",
    });
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("w.txt"), "utf8")).toBe("\uFEFFone\r\n2\r\n3\r\n");
  });

  it("answers missing files, directories, non-UTF-8 files, gitignored and .. paths", async () => {
    expect(
      (await conn.call("edit_file", { file_path: "none.txt", old_string: "a", new_string: "b" })).text,
    ).toBe(err("File not found: none.txt"));
    fs.mkdirSync(p("adir"), { recursive: true });
    expect((await conn.call("edit_file", { file_path: "adir", old_string: "a", new_string: "b" })).text).toBe(
      err("Not a file: adir"),
    );
    put("bin.dat", Buffer.from([0x61, 0xff, 0x0a]));
    // mcp-workspace's words, then which encodings it may be in and how to name one.
    const notUtf8 = (await conn.call("edit_file", { file_path: "bin.dat", old_string: "a", new_string: "b" }))
      .text;
    expect(notUtf8).toContain(
      err("File 'bin.dat' contains invalid characters. Not a UTF-8 text file: bin.dat."),
    );
    expect(notUtf8).toContain("Pass `encoding`");
    expect(fs.readFileSync(p("bin.dat"))).toEqual(Buffer.from([0x61, 0xff, 0x0a]));
    expect(
      (await conn.call("edit_file", { file_path: "x.log", old_string: "a", new_string: "b" })).text,
    ).toContain("'x.log' is excluded by .gitignore");
    expect(
      (await conn.call("edit_file", { file_path: "../x", old_string: "a", new_string: "b" })).text,
    ).toContain("contains '..' traversal");
  });

  it("serialises concurrent edits of one file (none lost)", async () => {
    put("conc.txt", `${Array.from({ length: 20 }, (_, i) => `line${i}`).join("\n")}\n`);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        conn.call("edit_file", { file_path: "conc.txt", old_string: `line${i}\n`, new_string: `LINE${i}\n` }),
      ),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(get("conc.txt")).toBe(`${Array.from({ length: 20 }, (_, i) => `LINE${i}`).join("\n")}\n`);
  });
});

describe("edit_file with edits: [{old_text, new_text}]", () => {
  it("applies edits in order, each to the first occurrence, and returns one diff", async () => {
    put("app.py", "def old_function():\n    pass\n\nold_function()\nold_function()\n");
    const r = await conn.call("edit_file", {
      file_path: "app.py",
      edits: [
        { old_text: "def old_function():", new_text: "def new_function():" },
        { old_text: "old_function()", new_text: "new_function()" },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.text.startsWith("--- a/app.py\n+++ b/app.py\n@@ ")).toBe(true);
    expect(get("app.py")).toBe("def new_function():\n    pass\n\nnew_function()\nold_function()\n");
  });

  it("dry_run previews the diff and leaves the file unchanged", async () => {
    put("dry.txt", "alpha\nbeta\n");
    const r = await conn.call("edit_file", {
      file_path: "dry.txt",
      edits: [{ old_text: "beta", new_text: "gamma" }],
      dry_run: true,
    });
    expect(r.text).toBe("--- a/dry.txt\n+++ b/dry.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n");
    expect(get("dry.txt")).toBe("alpha\nbeta\n");
  });

  it("preserve_indentation gives an unindented new_text the indentation of old_text", async () => {
    put("ind.py", "def f():\n    old_code()\n    other()\n");
    const r = await conn.call("edit_file", {
      file_path: "ind.py",
      edits: [{ old_text: "    old_code()", new_text: "new_code()\nmore()" }],
      options: { preserve_indentation: true },
    });
    expect(r.isError).toBe(false);
    expect(get("ind.py")).toBe("def f():\n    new_code()\n    more()\n    other()\n");
  });

  it("skips already applied edits, answers when nothing changes, and writes nothing when one edit fails", async () => {
    put("s.txt", "DEBUG = True\n");
    expect(
      (
        await conn.call("edit_file", {
          file_path: "s.txt",
          edits: [{ old_text: "DEBUG = False", new_text: "DEBUG = True" }],
        })
      ).text,
    ).toBe(
      "No changes needed - content already in desired state: old_text not found, new_text found at line 1. " +
        "Nothing was changed; if that is not your edit, read the file and retry.",
    );
    const r = await conn.call("edit_file", {
      file_path: "s.txt",
      edits: [
        { old_text: "DEBUG = True", new_text: "DEBUG = 1" },
        { old_text: "missing", new_text: "x" },
      ],
    });
    expect(r.text).toBe(err("Text not found in s.txt: missing (edit 2 of 2; no edit was applied)"));
    expect(get("s.txt")).toBe("DEBUG = True\n");
  });

  it("detects an edit already applied at its position, and gives the backslash hint in old_text's words", async () => {
    put("pos.txt", "alpha beta\n");
    expect(
      (
        await conn.call("edit_file", {
          file_path: "pos.txt",
          edits: [{ old_text: "alpha", new_text: "alpha beta" }],
        })
      ).text,
    ).toMatch(
      /^No changes needed - content already in desired state: the text at old_text's match \(line 1\)/,
    );
    expect(get("pos.txt")).toBe("alpha beta\n");
    put("bs.txt", 'p = "C:\\\\temp"\n');
    const r = await conn.call("edit_file", {
      file_path: "bs.txt",
      edits: [{ old_text: 'p = "C:\\temp"', new_text: "x" }],
    });
    expect(r.text).toBe(
      err(
        'Text not found: p = "C:\\temp"\nHint: file may store backslashes as `\\\\` (double backslashes) — use double backslashes in both `old_text` and `new_text`.',
      ),
    );
  });

  it("replace_all applies to each old_text; giving both shapes is refused", async () => {
    put("ra.txt", "a a a\n");
    await conn.call("edit_file", {
      file_path: "ra.txt",
      edits: [{ old_text: "a", new_text: "b" }],
      replace_all: true,
    });
    expect(get("ra.txt")).toBe("b b b\n");
    const both = await conn.call("edit_file", {
      file_path: "ra.txt",
      old_string: "b",
      new_string: "c",
      edits: [{ old_text: "b", new_text: "c" }],
    });
    expect(both.text).toBe(err("Give either edits or old_string/new_string, not both"));
  });
});
