import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { type Case, runCases } from "./harness.js";

function tree(text: string): { name: string; type: string; children?: unknown[] }[] {
  return JSON.parse(text);
}

const FIVE = "line1\nline2\nline3\nline4\nline5\n";

export const fixCases: Case[] = [
  {
    name: "tail returns exactly N lines when the file ends in a newline",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      const p = path.join(dir, "a.txt");
      expect((await conn.call("read_text_file", { path: p, tail: 2 })).text).toBe("line4\nline5");
      expect((await conn.call("read_text_file", { path: p, tail: 1 })).text).toBe("line5");
    },
  },
  {
    name: "head and tail treat CR alike",
    files: { "crlf.txt": "a\r\nb\r\nc\r\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "crlf.txt");
      expect((await conn.call("read_text_file", { path: p, head: 2 })).text).toBe("a\nb");
      expect((await conn.call("read_text_file", { path: p, tail: 2 })).text).toBe("b\nc");
    },
  },
  {
    name: "a file that is not UTF-8 is refused by every read shape, naming the path",
    files: { "latin1.txt": Buffer.from("caf\xe9\n", "latin1") },
    async run({ conn, dir }) {
      const p = path.join(dir, "latin1.txt");
      for (const extra of [{}, { head: 1 }, { tail: 1 }]) {
        const r = await conn.call("read_text_file", { path: p, ...extra });
        expect(r.isError).toBe(true);
        expect(r.text).toContain("latin1.txt");
        expect(r.text).not.toContain("\uFFFD");
      }
    },
  },
  {
    name: "head 0 is a clear error",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      const r = await conn.call("read_text_file", { path: path.join(dir, "a.txt"), head: 0 });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/head must be a positive whole number/);
    },
  },
  {
    name: "a negative tail is a clear error",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      const r = await conn.call("read_text_file", { path: path.join(dir, "a.txt"), tail: -2 });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/tail must be a positive whole number/);
    },
  },
  {
    name: "edit_file refuses an oldText that matches more than once, naming the lines",
    files: { "e.txt": "x = 1\ny = 2\nx = 1\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", { path: p, edits: [{ oldText: "x = 1", newText: "x = 9" }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("matches 2 times, at lines 1, 3");
      expect(fs.readFileSync(p, "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
    },
  },
  {
    name: "edit_file refuses an empty oldText",
    files: { "e.txt": "body\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", { path: p, edits: [{ oldText: "", newText: "inserted" }] });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("oldText is empty");
      expect(fs.readFileSync(p, "utf8")).toBe("body\n");
    },
  },
  {
    name: "edit_file whitespace-tolerant match keeps nested indentation (reference §5 example)",
    files: { "n.js": "function f() {\n    if (x) {\n        foo();\n        bar();\n    }\n}\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "n.js");
      const r = await conn.call("edit_file", {
        path: p,
        edits: [
          {
            oldText: "if (x) {\n    foo();\n    bar();\n}",
            newText: "if (y) {\n    foo();\n        nested();\n    bar();\n}",
          },
        ],
      });
      expect(r.isError).toBe(false);
      expect(fs.readFileSync(p, "utf8")).toBe(
        "function f() {\n    if (y) {\n        foo();\n            nested();\n        bar();\n    }\n}\n",
      );
    },
  },
  {
    name: "edit_file keeps a CRLF file CRLF (and its BOM)",
    files: { "w.txt": "\uFEFFone\r\ntwo\r\nthree\r\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "w.txt");
      await conn.call("edit_file", { path: p, edits: [{ oldText: "two", newText: "2\n2b" }] });
      expect(fs.readFileSync(p, "utf8")).toBe("\uFEFFone\r\n2\r\n2b\r\nthree\r\n");
    },
  },
  {
    name: "edit_file with an empty edits list writes nothing",
    files: { "w.txt": "one\r\ntwo\r\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "w.txt");
      const past = new Date("2020-01-01T00:00:00Z");
      fs.utimesSync(p, past, past);
      const r = await conn.call("edit_file", { path: p, edits: [] });
      expect(r.isError).toBe(false);
      expect(fs.readFileSync(p, "utf8")).toBe("one\r\ntwo\r\n");
      expect(fs.statSync(p).mtime.getTime()).toBe(past.getTime());
    },
  },
  {
    name: "edit_file stays all-or-nothing when a later edit is ambiguous",
    files: { "e.txt": "a\nb\nb\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", {
        path: p,
        edits: [
          { oldText: "a", newText: "A" },
          { oldText: "b", newText: "B" },
        ],
      });
      expect(r.isError).toBe(true);
      expect(fs.readFileSync(p, "utf8")).toBe("a\nb\nb\n");
    },
  },
  {
    name: "move_file on a symlink moves the link, not its target",
    files: { "target.txt": "T" },
    async run({ conn, dir }) {
      fs.symlinkSync("target.txt", path.join(dir, "link"));
      const r = await conn.call("move_file", {
        source: path.join(dir, "link"),
        destination: path.join(dir, "moved"),
      });
      expect(r.isError).toBe(false);
      expect(fs.lstatSync(path.join(dir, "moved")).isSymbolicLink()).toBe(true);
      expect(fs.readlinkSync(path.join(dir, "moved"))).toBe("target.txt");
      expect(fs.readFileSync(path.join(dir, "target.txt"), "utf8")).toBe("T");
      expect(fs.existsSync(path.join(dir, "link"))).toBe(false);
    },
  },
  {
    name: "move_file works across devices (copy + remove)",
    files: { "d/a.txt": "A", "d/sub/b.txt": "B" },
    async run({ conn, dir, other, kind }) {
      const dst = path.join(other, `moved-${kind}`);
      fs.chmodSync(path.join(dir, "d/a.txt"), 0o751);
      const r = await conn.call("move_file", { source: path.join(dir, "d"), destination: dst });
      expect(r.isError).toBe(false);
      expect(fs.readFileSync(path.join(dst, "sub/b.txt"), "utf8")).toBe("B");
      expect(fs.statSync(path.join(dst, "a.txt")).mode & 0o777).toBe(0o751);
      expect(fs.existsSync(path.join(dir, "d"))).toBe(false);
      // Only meaningful when the two roots really are on different devices.
      expect(fs.statSync(other).dev).not.toBe(fs.statSync(dir).dev);
    },
  },
  {
    name: "write_file with a missing parent directory is a clear error",
    async run({ conn, dir }) {
      const r = await conn.call("write_file", { path: path.join(dir, "no/such/dir/f.txt"), content: "x" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Parent directory does not exist");
      expect(r.text).not.toContain("ENOENT");
    },
  },
  {
    name: "list_directory shows an in-root symlink as [LINK] name -> target",
    files: { "real/": null, "f.txt": "x" },
    async run({ conn, dir }) {
      fs.symlinkSync("real", path.join(dir, "alias"));
      const r = await conn.call("list_directory", { path: dir });
      expect(r.text).toBe("[LINK] alias -> real\n[FILE] f.txt\n[DIR] real");
    },
  },
  {
    name: "listings never reveal the target, type or size of a link leading outside",
    async run({ conn, dir, outside }) {
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "out"));
      const plain = await conn.call("list_directory", { path: dir });
      expect(plain.text).toBe("[LINK] out");
      const sized = await conn.call("list_directory_with_sizes", { path: dir });
      expect(sized.text).not.toContain("12.06 KB");
      expect(sized.text).not.toContain(outside);
      expect(sized.text).toContain("Combined size: 0 B");
    },
  },
  {
    name: "get_file_info shows setuid/setgid/sticky bits and gives ISO-8601 times in its structured reply",
    files: { "s.sh": "x", "plain.txt": "y" },
    async run({ conn, dir }) {
      const p = path.join(dir, "s.sh");
      fs.chmodSync(p, 0o4755);
      const r = await conn.call("get_file_info", { path: p });
      expect(r.text).toContain("permissions: 755");
      expect(r.text).toContain("mode: 4755 (rwsr-xr-x)");
      expect(r.structured?.modified).toBe(fs.statSync(p).mtime.toISOString());
      expect(r.structured?.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      // Each fact once: no second spelling of the same time or of the permissions.
      const plain = await conn.call("get_file_info", { path: path.join(dir, "plain.txt") });
      expect(plain.text).not.toMatch(/ISO|mode:|type:/);
    },
  },
  {
    name: "errors never list the allowed directories",
    async run({ conn, root, other, outside }) {
      const r = await conn.call("read_text_file", { path: path.join(outside, "secret.txt") });
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain(root);
      expect(r.text).not.toContain(other);
    },
  },
  {
    name: "errors never leak absolute paths the client did not send",
    async run({ conn, root }) {
      const r = await conn.call("read_text_file", { path: "no-such-file.txt" });
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain(root);
      expect(r.text).toContain("no-such-file.txt");
    },
  },
  {
    name: "a read larger than the output budget is truncated with a note",
    files: { "big.txt": `${"0123456789abcdef".repeat(63)}\n`.repeat(600) },
    async run({ conn, dir }) {
      const r = await conn.call("read_text_file", { path: path.join(dir, "big.txt") });
      expect(r.isError).toBe(false);
      expect(r.text.length).toBeLessThanOrEqual(48_000);
      expect(r.text.split("\n").at(-1)).toMatch(
        /^\[mcpfs: output truncated: .*Read on with startLine=\d+\.\]$/,
      );
    },
  },
  {
    name: "read_multiple_files shares one output budget",
    files: { "a.txt": "a".repeat(200_000), "b.txt": "b".repeat(200_000) },
    async run({ conn, dir }) {
      const r = await conn.call("read_multiple_files", {
        paths: [path.join(dir, "a.txt"), path.join(dir, "b.txt")],
      });
      expect(r.text.length).toBeLessThanOrEqual(48_000);
      expect(r.text).toContain("[mcpfs: output truncated");
    },
  },
  {
    name: "read_media_file recognises the type from the content",
    files: {
      "photo.dat": Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
      "doc.pdf": Buffer.from("%PDF-1.7\n%\xff\n"),
    },
    async run({ conn, dir }) {
      const img = await conn.call("read_media_file", { path: path.join(dir, "photo.dat") });
      expect(img.raw.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
      const pdf = await conn.call("read_media_file", { path: path.join(dir, "doc.pdf") });
      expect(pdf.raw.content[0].resource.mimeType).toBe("application/pdf");
    },
  },
  {
    name: "read_media_file covers avif, ico and tiff",
    files: {
      "a.avif": Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from("ftypavif"), Buffer.alloc(16)]),
      "i.ico": Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0]),
      "t.tiff": Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]),
    },
    async run({ conn, dir }) {
      const types: string[] = [];
      for (const f of ["a.avif", "i.ico", "t.tiff"])
        types.push((await conn.call("read_media_file", { path: path.join(dir, f) })).raw.content[0].mimeType);
      expect(types).toEqual(["image/avif", "image/x-icon", "image/tiff"]);
    },
  },
  {
    name: "directory_tree honours maxDepth",
    files: { "a/b/c/d.txt": "x" },
    async run({ conn, dir }) {
      const r = await conn.call("directory_tree", { path: dir, maxDepth: 2 });
      const t = tree(r.text);
      expect(t).toEqual([
        { name: "a", type: "directory", children: [{ name: "b", type: "directory", children: [] }] },
      ]);
    },
  },
  {
    name: "directory_tree: a glob without / excludes at any depth",
    files: { "top.log": "x", "keep.txt": "k", "sub/deep.log": "y" },
    async run({ conn, dir }) {
      const r = await conn.call("directory_tree", { path: dir, excludePatterns: ["*.log"] });
      expect(r.text).not.toContain("deep.log");
      expect(r.text).not.toContain("top.log");
      expect(r.text).toContain("keep.txt");
    },
  },
  {
    name: "search_files: an exclude without / excludes at any depth",
    files: { "node_modules/x.ts": "", "pkg/node_modules/y.ts": "", "src/z.ts": "" },
    async run({ conn, dir }) {
      const r = await conn.call("search_files", {
        path: dir,
        pattern: "**/*.ts",
        excludePatterns: ["node_modules"],
      });
      expect(r.text).toBe(path.join(dir, "src/z.ts"));
    },
  },
  {
    name: "directory_tree shows a symlink as a symlink",
    files: { "real/f.txt": "x" },
    async run({ conn, dir }) {
      fs.symlinkSync("real", path.join(dir, "alias"));
      const t = tree((await conn.call("directory_tree", { path: dir })).text);
      expect(t[0]).toMatchObject({ name: "alias", type: "symlink", target: "real" });
    },
  },
  {
    name: "search_files and directory_tree skip .gitignored paths and .git/",
    files: {
      ".gitignore": "build/\n*.tmp\n",
      ".git/HEAD": "ref",
      "build/out.ts": "",
      "a.tmp": "",
      "src/k.ts": "",
    },
    async run({ conn, dir }) {
      const s = await conn.call("search_files", { path: dir, pattern: "**/*" });
      const [note, ...paths] = s.text.split("\n").reverse();
      expect(paths.sort()).toEqual([".gitignore", "src", "src/k.ts"].map((p) => path.join(dir, p)).sort());
      // build/ and a.tmp (.git/ is never counted: includeIgnored does not show it either).
      expect(note).toBe(
        "[mcpfs: 2 ignored entries skipped (.gitignore rules); includeIgnored=true includes them.]",
      );
      const t = tree((await conn.call("directory_tree", { path: dir })).raw.content[0].text);
      expect(t.map((e) => e.name).sort()).toEqual([".gitignore", "src"]);
    },
  },
];

runCases("filesystem surface fixes", "fix", fixCases);
