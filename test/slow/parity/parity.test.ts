import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { type Case, runCases } from "./harness.js";

const NAMES = [
  "mango",
  "apple",
  "kiwi",
  "zebra",
  "banana",
  "cherry",
  "date",
  "fig",
  "grape",
  "lemon",
  "lime",
];
const FIVE = "line1\nline2\nline3\nline4\nline5\n";
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6300010000050001" +
    "0d0a2db40000000049454e44ae426082",
  "hex",
);
const WAV = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt "), Buffer.alloc(20)]);

function diffOf(file: string, hunk: string): string {
  return (
    "```diff\n" +
    `Index: ${file}\n` +
    "===================================================================\n" +
    `--- ${file}\toriginal\n+++ ${file}\tmodified\n${hunk}` +
    "```\n\n"
  );
}

const cases: Case[] = [
  {
    name: "read_text_file returns the whole file",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      const r = await conn.call("read_text_file", { path: path.join(dir, "a.txt") });
      expect(r.isError).toBe(false);
      expect(r.text).toBe(FIVE);
      expect(r.structured?.content).toBe(FIVE);
    },
  },
  {
    name: "read_file (deprecated) reads like read_text_file",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      expect((await conn.call("read_file", { path: path.join(dir, "a.txt") })).text).toBe(FIVE);
    },
  },
  {
    name: "read_text_file head returns the first N lines without a trailing newline",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      expect((await conn.call("read_text_file", { path: path.join(dir, "a.txt"), head: 2 })).text).toBe(
        "line1\nline2",
      );
      expect((await conn.call("read_text_file", { path: path.join(dir, "a.txt"), head: 99 })).text).toBe(
        "line1\nline2\nline3\nline4\nline5",
      );
    },
  },
  {
    name: "read_text_file tail on a file without a final newline",
    files: { "a.txt": "a\nb\nc" },
    async run({ conn, dir }) {
      expect((await conn.call("read_text_file", { path: path.join(dir, "a.txt"), tail: 2 })).text).toBe(
        "b\nc",
      );
    },
  },
  {
    name: "read_text_file refuses head and tail together",
    files: { "a.txt": FIVE },
    async run({ conn, dir }) {
      const r = await conn.call("read_text_file", { path: path.join(dir, "a.txt"), head: 1, tail: 1 });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Cannot specify both head and tail parameters simultaneously");
    },
  },
  {
    name: "read_text_file keeps CR in a whole-file read",
    files: { "crlf.txt": "a\r\nb\r\n" },
    async run({ conn, dir }) {
      expect((await conn.call("read_text_file", { path: path.join(dir, "crlf.txt") })).text).toBe(
        "a\r\nb\r\n",
      );
    },
  },
  {
    name: "relative paths resolve against the allowed directory",
    files: { "rel.txt": "relative" },
    async run({ conn, dir, root }) {
      const rel = path.relative(root, path.join(dir, "rel.txt"));
      expect((await conn.call("read_text_file", { path: rel })).text).toBe("relative");
    },
  },
  {
    name: "read_multiple_files joins files with ---, errors inline without isError",
    files: { "a.txt": "l1\nl2\n", "b.txt": "x" },
    async run({ conn, dir }) {
      const a = path.join(dir, "a.txt");
      const b = path.join(dir, "b.txt");
      const r = await conn.call("read_multiple_files", { paths: [a, b] });
      expect(r.text).toBe(`${a}:\nl1\nl2\n\n\n---\n${b}:\nx\n`);
      const bad = await conn.call("read_multiple_files", { paths: [a, "/etc/passwd"] });
      expect(bad.isError).toBe(false);
      expect(bad.text.startsWith(`${a}:\nl1\nl2\n\n\n---\n/etc/passwd: Error - Access denied`)).toBe(true);
    },
  },
  {
    name: "read_multiple_files refuses an empty list",
    async run({ conn }) {
      const r = await conn.call("read_multiple_files", { paths: [] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/paths/);
    },
  },
  {
    name: "write_file creates and overwrites with the official success text",
    async run({ conn, dir }) {
      const p = path.join(dir, "new.txt");
      const r = await conn.call("write_file", { path: p, content: "héllo\n" });
      expect(r.text).toBe(`Successfully wrote to ${p}`);
      expect(fs.readFileSync(p, "utf8")).toBe("héllo\n");
      await conn.call("write_file", { path: p, content: "second" });
      expect(fs.readFileSync(p, "utf8")).toBe("second");
    },
  },
  {
    name: "write_file keeps the mode bits of an existing file",
    files: { "run.sh": "#!/bin/sh\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "run.sh");
      fs.chmodSync(p, 0o750);
      await conn.call("write_file", { path: p, content: "#!/bin/sh\necho hi\n" });
      expect(fs.statSync(p).mode & 0o7777).toBe(0o750);
    },
  },
  {
    name: "write_file through an in-root symlink updates the target and keeps the link",
    files: { "target.txt": "old" },
    async run({ conn, dir }) {
      fs.symlinkSync("target.txt", path.join(dir, "link.txt"));
      await conn.call("write_file", { path: path.join(dir, "link.txt"), content: "new" });
      expect(fs.lstatSync(path.join(dir, "link.txt")).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(path.join(dir, "target.txt"), "utf8")).toBe("new");
    },
  },
  {
    name: "edit_file returns the official fenced diff and writes the file",
    files: { "e.txt": "a\nb\nc\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", { path: p, edits: [{ oldText: "b", newText: "B" }] });
      expect(r.text).toBe(diffOf(p, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"));
      expect(fs.readFileSync(p, "utf8")).toBe("a\nB\nc\n");
    },
  },
  {
    name: "edit_file dryRun returns the diff and writes nothing",
    files: { "e.txt": "a\nb\nc\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", {
        path: p,
        edits: [{ oldText: "c", newText: "C" }],
        dryRun: true,
      });
      expect(r.text).toBe(diffOf(p, "@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n"));
      expect(fs.readFileSync(p, "utf8")).toBe("a\nb\nc\n");
    },
  },
  {
    name: "edit_file applies several edits in order",
    files: { "e.txt": "alpha\nbeta\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      await conn.call("edit_file", {
        path: p,
        edits: [
          { oldText: "alpha", newText: "one" },
          { oldText: "one\nbeta", newText: "two" },
        ],
      });
      expect(fs.readFileSync(p, "utf8")).toBe("two\n");
    },
  },
  {
    name: "edit_file with a missing match fails with the official message and writes nothing",
    files: { "e.txt": "a\nb\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "e.txt");
      const r = await conn.call("edit_file", {
        path: p,
        edits: [
          { oldText: "a", newText: "A" },
          { oldText: "zzz", newText: "y" },
        ],
      });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Could not find exact match for edit:\nzzz");
      expect(fs.readFileSync(p, "utf8")).toBe("a\nb\n");
    },
  },
  {
    name: "edit_file grows the fence past backticks in the diff",
    files: { "md.md": "doc\n```js\nq\n```\n" },
    async run({ conn, dir }) {
      const r = await conn.call("edit_file", {
        path: path.join(dir, "md.md"),
        edits: [{ oldText: "q", newText: "y" }],
        dryRun: true,
      });
      expect(r.text.startsWith("````diff\n")).toBe(true);
      expect(r.text.endsWith("\n````\n\n")).toBe(true);
    },
  },
  {
    name: "edit_file keeps a byte-order mark",
    files: { "bom.txt": "\uFEFFfirst\nsecond\n" },
    async run({ conn, dir }) {
      const p = path.join(dir, "bom.txt");
      await conn.call("edit_file", { path: p, edits: [{ oldText: "second", newText: "2nd" }] });
      expect(fs.readFileSync(p, "utf8")).toBe("\uFEFFfirst\n2nd\n");
    },
  },
  {
    name: "create_directory creates nested directories and accepts an existing one",
    async run({ conn, dir }) {
      const p = path.join(dir, "x/y/z");
      expect((await conn.call("create_directory", { path: p })).text).toBe(
        `Successfully created directory ${p}`,
      );
      expect(fs.statSync(p).isDirectory()).toBe(true);
      expect((await conn.call("create_directory", { path: p })).isError).toBe(false);
    },
  },
  {
    name: "list_directory labels files and directories",
    files: { "f.txt": "1", "sub/": null },
    async run({ conn, dir }) {
      const r = await conn.call("list_directory", { path: dir });
      expect(r.text.split("\n").sort()).toEqual(["[DIR] sub", "[FILE] f.txt"]);
    },
  },
  {
    name: "list_directory of an empty directory is empty text",
    files: { "empty/": null },
    async run({ conn, dir }) {
      const r = await conn.call("list_directory", { path: path.join(dir, "empty") });
      expect(r.isError).toBe(false);
      expect(r.text).toBe("");
    },
  },
  {
    name: "list_directory_with_sizes has the official columns and summary",
    files: { "b.txt": "12345", "a.bin": Buffer.alloc(3000), "dir/": null },
    async run({ conn, dir }) {
      const r = await conn.call("list_directory_with_sizes", { path: dir });
      expect(r.text).toBe(
        [
          `[FILE] ${"a.bin".padEnd(30)} ${"2.93 KB".padStart(10)}`,
          `[FILE] ${"b.txt".padEnd(30)} ${"5 B".padStart(10)}`,
          `[DIR] ${"dir".padEnd(30)} `,
          "",
          "Total: 2 files, 1 directories",
          "Combined size: 2.93 KB",
        ].join("\n"),
      );
    },
  },
  {
    name: "list_directory_with_sizes sorts files by size, largest first",
    files: { "s.txt": "1", "l.txt": "1".repeat(2000), "m.txt": "1".repeat(100) },
    async run({ conn, dir }) {
      const r = await conn.call("list_directory_with_sizes", { path: dir, sortBy: "size" });
      expect(
        r.text
          .split("\n")
          .slice(0, 3)
          .map((l) => l.split(/\s+/)[1]),
      ).toEqual(["l.txt", "m.txt", "s.txt"]);
    },
  },
  {
    name: "list_directory_with_sizes of an empty directory",
    files: { "empty/": null },
    async run({ conn, dir }) {
      const r = await conn.call("list_directory_with_sizes", { path: path.join(dir, "empty") });
      expect(r.text).toBe("\nTotal: 0 files, 0 directories\nCombined size: 0 B");
    },
  },
  {
    name: "move_file renames a file and a directory",
    files: { "a.txt": "A", "d/inner.txt": "I" },
    async run({ conn, dir }) {
      const r = await conn.call("move_file", {
        source: path.join(dir, "a.txt"),
        destination: path.join(dir, "b.txt"),
      });
      expect(r.text).toBe(`Successfully moved ${path.join(dir, "a.txt")} to ${path.join(dir, "b.txt")}`);
      expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("A");
      expect(fs.existsSync(path.join(dir, "a.txt"))).toBe(false);
      await conn.call("move_file", { source: path.join(dir, "d"), destination: path.join(dir, "e") });
      expect(fs.readFileSync(path.join(dir, "e/inner.txt"), "utf8")).toBe("I");
    },
  },
  {
    name: "move_file refuses an existing destination",
    files: { "a.txt": "A", "b.txt": "B" },
    async run({ conn, dir }) {
      const dst = path.join(dir, "b.txt");
      const r = await conn.call("move_file", { source: path.join(dir, "a.txt"), destination: dst });
      expect(r.isError).toBe(true);
      expect(r.text).toBe(`Destination already exists: ${dst}`);
      expect(fs.readFileSync(dst, "utf8")).toBe("B");
    },
  },
  {
    name: "get_file_info lists the official keys in order",
    files: { "i.txt": "0123456789" },
    async run({ conn, dir }) {
      const p = path.join(dir, "i.txt");
      fs.chmodSync(p, 0o640);
      const r = await conn.call("get_file_info", { path: p });
      const lines = r.text.split("\n");
      expect(lines.slice(0, 7).map((l) => l.split(":")[0])).toEqual([
        "size",
        "created",
        "modified",
        "accessed",
        "isDirectory",
        "isFile",
        "permissions",
      ]);
      expect(lines[0]).toBe("size: 10");
      expect(lines[4]).toBe("isDirectory: false");
      expect(lines[5]).toBe("isFile: true");
      expect(lines[6]).toBe("permissions: 640");
      expect(lines[2]).toBe(`modified: ${fs.statSync(p).mtime.toString()}`);
    },
  },
  {
    name: "list_allowed_directories lists the roots",
    async run({ conn, root, other }) {
      expect((await conn.call("list_allowed_directories")).text).toBe(
        `Allowed directories:\n${root}\n${other}`,
      );
    },
  },
  {
    name: "read_media_file returns images and audio as image/audio blocks",
    files: { "p.png": PNG, "s.wav": WAV },
    async run({ conn, dir }) {
      const img = await conn.call("read_media_file", { path: path.join(dir, "p.png") });
      expect(img.raw.content[0]).toEqual({
        type: "image",
        data: PNG.toString("base64"),
        mimeType: "image/png",
      });
      const snd = await conn.call("read_media_file", { path: path.join(dir, "s.wav") });
      expect(snd.raw.content[0]).toMatchObject({ type: "audio", mimeType: "audio/wav" });
      expect(img.structured?.content).toEqual(img.raw.content);
    },
  },
  {
    name: "read_media_file returns other files as an embedded resource with a file:// URI",
    files: { "my café.bin": Buffer.from([1, 2, 3, 4]) },
    async run({ conn, dir }) {
      const p = path.join(dir, "my café.bin");
      const r = await conn.call("read_media_file", { path: p });
      expect(r.raw.content[0]).toEqual({
        type: "resource",
        resource: {
          uri: `file://${dir.split("/").map(encodeURIComponent).join("/")}/my%20caf%C3%A9.bin`,
          mimeType: "application/octet-stream",
          blob: "AQIDBA==",
        },
      });
    },
  },
  {
    name: "paths outside the allowed directories are denied",
    async run({ conn, outside }) {
      const r = await conn.call("read_text_file", { path: path.join(outside, "secret.txt") });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Access denied - path outside allowed directories/);
    },
  },
  {
    name: "a symlink leading outside is denied",
    async run({ conn, dir, outside }) {
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "leak"));
      const r = await conn.call("read_text_file", { path: path.join(dir, "leak") });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Access denied/);
    },
  },
  {
    name: "unicode file names round-trip through write, list and read",
    async run({ conn, dir }) {
      const p = path.join(dir, "naïve ☕ 日本.txt");
      await conn.call("write_file", { path: p, content: "ü" });
      expect((await conn.call("list_directory", { path: dir })).text).toBe("[FILE] naïve ☕ 日本.txt");
      expect((await conn.call("read_text_file", { path: p })).text).toBe("ü");
    },
  },
  {
    name: "listings are sorted by name",
    files: Object.fromEntries(NAMES.map((n) => [`${n}.txt`, n])),
    async run({ conn, dir }) {
      const r = await conn.call("list_directory", { path: dir });
      expect(r.text.split("\n")).toEqual([...NAMES].sort().map((n) => `[FILE] ${n}.txt`));
    },
  },
  {
    name: "directory_tree returns 2-space JSON of the children, files without children",
    files: { "a/b.txt": "b", "a/empty/": null, "c.txt": "c" },
    async run({ conn, dir }) {
      const r = await conn.call("directory_tree", { path: dir });
      const want = [
        {
          name: "a",
          type: "directory",
          children: [
            { name: "b.txt", type: "file" },
            { name: "empty", type: "directory", children: [] },
          ],
        },
        { name: "c.txt", type: "file" },
      ];
      expect(r.text).toBe(JSON.stringify(want, null, 2));
    },
  },
  {
    name: "directory_tree excludes a plain name at any depth",
    files: { "node_modules/x.js": "", "pkg/node_modules/y.js": "", "pkg/z.js": "" },
    async run({ conn, dir }) {
      const r = await conn.call("directory_tree", { path: dir, excludePatterns: ["node_modules"] });
      expect(JSON.parse(r.text)).toEqual([
        { name: "pkg", type: "directory", children: [{ name: "z.js", type: "file" }] },
      ]);
    },
  },
  {
    name: "search_files matches globs relative to the path, case-sensitively",
    files: { "a.ts": "", "src/b.ts": "", "src/deep/c.ts": "", "src/d.md": "" },
    async run({ conn, dir }) {
      const top = await conn.call("search_files", { path: dir, pattern: "*.ts" });
      expect(top.text).toBe(path.join(dir, "a.ts"));
      const all = await conn.call("search_files", { path: dir, pattern: "**/*.ts" });
      expect(all.text.split("\n").sort()).toEqual(
        ["a.ts", "src/b.ts", "src/deep/c.ts"].map((p) => path.join(dir, p)).sort(),
      );
      const upper = await conn.call("search_files", { path: dir, pattern: "**/*.TS" });
      expect(upper.text).toBe("No matches found");
    },
  },
  {
    name: "search_files matches directories too, and anchored excludes work",
    files: { "src/x/a.ts": "", "lib/x/b.ts": "" },
    async run({ conn, dir }) {
      const r = await conn.call("search_files", { path: dir, pattern: "**/x", excludePatterns: ["lib/**"] });
      expect(r.text).toBe(path.join(dir, "src/x"));
    },
  },
  {
    name: "search_files skips an in-root symlink whose target is outside, lists one pointing inside",
    files: { "in.txt": "", "sub/x.txt": "" },
    async run({ conn, dir, outside }) {
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "link-out.txt"));
      fs.symlinkSync(outside, path.join(dir, "link-outdir"));
      fs.symlinkSync("in.txt", path.join(dir, "link-in.txt"));
      fs.symlinkSync("sub", path.join(dir, "link-sub"));
      const r = await conn.call("search_files", { path: dir, pattern: "**/link-*" });
      expect(r.text.split("\n").sort()).toEqual([path.join(dir, "link-in.txt"), path.join(dir, "link-sub")]);
      // Neither link is followed: nothing below them is found.
      const below = await conn.call("search_files", { path: dir, pattern: "**/{secret,x}.txt" });
      expect(below.text).toBe(path.join(dir, "sub/x.txt"));
    },
  },
];

runCases("filesystem surface", "parity", cases);
