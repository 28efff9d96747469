/**
 * Black-box: files in legacy encodings and UTF-16 through the installed package, on both surfaces. The
 * files are made by Debian's `iconv` (glibc), and every edit is compared with the same edit made by iconv
 * (decode to UTF-8, change the line, encode back): only the changed line's bytes differ. Reads equal the
 * expected text; a file that is not UTF-8 is refused without an encoding, naming the path and guessing
 * encodings; a character the encoding cannot hold is refused with the file unchanged.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Debian's iconv: UTF-8 text to `to`, and bytes in `from` to UTF-8 text. */
const toBytes = (text: string, to: string) =>
  execFileSync("iconv", ["-f", "UTF-8", "-t", to], { input: text });
const toText = (bytes: Buffer, from: string) =>
  execFileSync("iconv", ["-f", from, "-t", "UTF-8"], { input: bytes }).toString("utf8");

interface Case {
  file: string;
  /** The name mcpfs is given (iconv-lite's), and glibc iconv's; BOM files need none. */
  encoding?: string;
  iconv: string;
  bom?: Buffer;
  text: string;
  /** A line of `text` an edit replaces, and its replacement. */
  line: string;
  newLine: string;
}

const CASES: Case[] = [
  {
    file: "latin1.txt",
    encoding: "latin1",
    iconv: "ISO-8859-1",
    text: "café crème\nnaïve façade\nÆsir ø å\n",
    line: "naïve façade",
    newLine: "naïve façade, no: naïf, déjà",
  },
  {
    file: "cp1252.txt",
    encoding: "windows-1252",
    iconv: "CP1252",
    text: "price: 5 €\r\n“quoted” – dash\r\nend…\r\n",
    line: "“quoted” – dash",
    newLine: "‘single’ € œ",
  },
  {
    file: "sjis.txt",
    encoding: "shift_jis",
    iconv: "SHIFT_JIS",
    text: "日本語のテキスト\nカタカナとひらがな\n三行目です\n",
    line: "カタカナとひらがな",
    newLine: "漢字に変えました",
  },
  {
    file: "gbk.txt",
    encoding: "gbk",
    iconv: "GBK",
    text: "中文文本\n第二行内容\n第三行\n",
    line: "第二行内容",
    newLine: "已经修改的行",
  },
  {
    file: "utf16le.txt",
    iconv: "UTF-16LE",
    bom: Buffer.from([0xff, 0xfe]),
    text: "héllo wörld\r\nline ☃ two\r\nthird 日本\r\n",
    line: "line ☃ two",
    newLine: "LINE ✓ 2",
  },
  {
    file: "utf16be.txt",
    iconv: "UTF-16BE",
    bom: Buffer.from([0xfe, 0xff]),
    text: "first\nsecond Ω\nthird\n",
    line: "second Ω",
    newLine: "2nd ω",
  },
];

/** The file's bytes as iconv makes them (BOM first). */
const bytesOf = (c: Case, text = c.text) => Buffer.concat([c.bom ?? Buffer.alloc(0), toBytes(text, c.iconv)]);

/** The same one-line edit, made with iconv: decode, replace, encode. */
function editedByIconv(c: Case, original: Buffer): Buffer {
  const text = toText(original, c.iconv);
  expect(text).toContain(c.line);
  return toBytes(text.replace(c.line, c.newLine), c.iconv);
}

const FILES = Object.fromEntries(CASES.map((c) => [c.file, bytesOf(c)]));
const linesOf = (t: string) => t.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");

const SURFACES = [
  {
    name: "filesystem",
    start: (root: string, extra: string[] = []) =>
      startServer([...extra, root], { env: { MCPFS_STATE_DIR: path.join(root, "..", "state-fs") } }),
    file: (root: string, rel: string) => ({ path: path.join(root, rel) }),
    arg: (n: string) => n,
    read: "read_text_file",
    edit: (c: Case) => ({ edits: [{ oldText: c.line, newText: c.newLine }] }),
    append: (content: string) => ({ content }),
  },
  {
    name: "workspace",
    start: (root: string, extra: string[] = []) =>
      startServer([...extra, "--project-dir", root], {
        env: { MCPFS_STATE_DIR: path.join(root, "..", "state-ws") },
      }),
    file: (_root: string, rel: string) => ({ file_path: rel }),
    arg: (n: string) => n.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`),
    read: "read_file",
    edit: (c: Case) => ({ old_string: c.line, new_string: c.newLine }),
    append: (content: string) => ({ content }),
  },
];

describe.each(SURFACES)("encodings, $name surface", (s) => {
  const root = area.tree(`${s.name}/root`, FILES);
  let conn: Connection;
  beforeAll(async () => {
    conn = await s.start(root);
  });
  afterAll(() => conn.close());
  const at = (rel: string) => path.join(root, rel);
  const enc = (c: Case) => (c.encoding ? { encoding: c.encoding } : {});

  it.each(CASES)("reads $file as the text iconv made it from", async (c) => {
    const r = await conn.call(s.read, { ...s.file(root, c.file), ...enc(c) });
    expect(r.isError, r.text).toBe(false);
    for (const line of linesOf(c.text)) expect(r.text).toContain(line);
    expect(r.text).not.toContain("\uFFFD");
    if (s.name === "filesystem") expect(r.text).toBe(c.text);
  });

  it.each(CASES)("reads line ranges of $file", async (c) => {
    const lines = linesOf(c.text);
    const r = await conn.call(s.read, {
      ...s.file(root, c.file),
      ...enc(c),
      [s.arg("startLine")]: 2,
      [s.arg("endLine")]: 2,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(lines[1]);
    expect(r.text).not.toContain(lines[0]);
    expect(r.text).not.toContain(lines[2]);
  });

  it.each(CASES.filter((c) => c.encoding))("refuses $file without an encoding, guessing some", async (c) => {
    const r = await conn.call(s.read, s.file(root, c.file));
    expect(r.isError).toBe(true);
    expect(r.text).toContain(c.file);
    expect(r.text).toContain("Not a UTF-8 text file");
    expect(r.text).toMatch(/Likely encodings \(a guess by chardet\): \S/);
    expect(r.text).toContain("`encoding`");
  });

  it.each(CASES)("an edit of one line of $file changes the bytes iconv changes", async (c) => {
    fs.writeFileSync(at(c.file), bytesOf(c));
    const before = fs.readFileSync(at(c.file));
    const r = await conn.call("edit_file", { ...s.file(root, c.file), ...s.edit(c), ...enc(c) });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(at(c.file))).toEqual(editedByIconv(c, before));
  });

  it.each(CASES)("edit_lines keeps the encoding of $file (#26)", async (c) => {
    fs.writeFileSync(at(c.file), bytesOf(c));
    const before = fs.readFileSync(at(c.file));
    const r = await conn.call("edit_lines", {
      ...s.file(root, c.file),
      ...enc(c),
      edits: [{ [s.arg("startLine")]: 2, [s.arg("endLine")]: 2, [s.arg("newText")]: c.newLine }],
      [s.arg("expectedSha256")]: sha(before),
    });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(at(c.file))).toEqual(editedByIconv(c, before));
  });

  it.each(CASES.filter((c) => c.encoding))("appends to $file in its encoding", async (c) => {
    fs.writeFileSync(at(c.file), bytesOf(c));
    const r = await conn.call("append_file", {
      ...s.file(root, c.file),
      ...s.append(`${c.newLine}\n`),
      ...enc(c),
    });
    expect(r.isError, r.text).toBe(false);
    const eol = c.text.includes("\r\n") ? "\r\n" : "\n";
    expect(fs.readFileSync(at(c.file))).toEqual(bytesOf(c, `${c.text}${c.newLine}${eol}`));
  });

  it("refuses a character the encoding cannot hold, naming it; the file is unchanged", async () => {
    const c = CASES[0]!;
    fs.writeFileSync(at(c.file), bytesOf(c));
    const before = fs.readFileSync(at(c.file));
    const r = await conn.call("edit_file", {
      ...s.file(root, c.file),
      ...s.edit({ ...c, newLine: "日本語" }),
      ...enc(c),
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(c.file);
    expect(r.text).toContain("U+65E5");
    expect(fs.readFileSync(at(c.file))).toEqual(before);
    const a = await conn.call("append_file", { ...s.file(root, c.file), ...s.append("€\n"), ...enc(c) });
    expect(a.isError).toBe(true);
    expect(a.text).toContain("U+20AC");
    expect(fs.readFileSync(at(c.file))).toEqual(before);
  });

  it("a write over an existing UTF-16 file keeps its encoding and BOM", async () => {
    const c = CASES.find((x) => x.file === "utf16le.txt")!;
    fs.writeFileSync(at(c.file), bytesOf(c));
    const tool = s.name === "filesystem" ? "write_file" : "save_file";
    const r = await conn.call(tool, { ...s.file(root, c.file), content: "new ☃ text\n" });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(at(c.file))).toEqual(bytesOf(c, "new ☃ text\n"));
  });
});

describe("encodings: head, tail, get_file_info and --default-encoding (filesystem surface)", () => {
  const root = area.tree("flag/root", FILES);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--default-encoding", "windows-1252", root], {
      env: { MCPFS_STATE_DIR: path.join(root, "..", "state") },
    });
  });
  afterAll(() => conn.close());
  const file = (rel: string) => path.join(root, rel);

  it("--default-encoding reads a file that is not UTF-8 without a parameter", async () => {
    const r = await conn.call("read_text_file", { path: file("cp1252.txt") });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toBe(CASES[1]!.text);
  });

  it.each(CASES)("head and tail of $file", async (c) => {
    const lines = linesOf(c.text);
    const h = await conn.call("read_text_file", {
      path: file(c.file),
      ...(c.encoding ? { encoding: c.encoding } : {}),
      head: 1,
    });
    expect(h.isError, h.text).toBe(false);
    expect(h.text).toBe(lines[0]);
    const t = await conn.call("read_text_file", {
      path: file(c.file),
      ...(c.encoding ? { encoding: c.encoding } : {}),
      tail: 2,
    });
    expect(t.isError, t.text).toBe(false);
    expect(t.text).toBe(lines.slice(-2).join("\n"));
  });

  it("get_file_info reports the encoding", async () => {
    const u16 = await conn.call("get_file_info", { path: file("utf16be.txt") });
    expect(u16.structured?.encoding).toBe("utf-16be with BOM");
    expect(u16.text).toContain("encoding: utf-16be with BOM");
    const sjis = await conn.call("get_file_info", { path: file("sjis.txt") });
    expect(sjis.structured?.encoding).toMatch(/\(guess\)$/);
    fs.writeFileSync(file("plain.txt"), "plain\n");
    const plain = await conn.call("get_file_info", { path: file("plain.txt") });
    expect(plain.structured?.encoding).toBe("utf-8");
    expect(plain.text).not.toContain("encoding");
  });

  it("an unknown encoding name is refused with the path", async () => {
    const r = await conn.call("read_text_file", { path: file("latin1.txt"), encoding: "klingon-8" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("klingon-8");
    expect(r.text).toContain("latin1.txt");
  });
});

describe("encodings: read_structured and edit_structured (both surfaces)", () => {
  for (const surface of ["filesystem", "workspace"] as const) {
    it(`${surface}: a Latin-1 YAML file is read and edited in latin1, the rest of its bytes kept`, async () => {
      const root = area.tree(`structured/${surface}`, {
        "conf.yaml": toBytes("# réglages\nname: café\nsize: 2\n", "ISO-8859-1"),
      });
      const conn = await startServer(surface === "filesystem" ? [root] : ["--project-dir", root], {
        env: { MCPFS_STATE_DIR: path.join(root, "..", `state-${surface}`) },
      });
      try {
        const file = surface === "filesystem" ? path.join(root, "conf.yaml") : "conf.yaml";
        const pathKey = surface === "filesystem" ? "path" : "file_path";
        const r = await conn.call("read_structured", { [pathKey]: file, query: "name", encoding: "latin1" });
        expect(r.isError, r.text).toBe(false);
        expect(r.text).toBe('"café"');
        const e = await conn.call("edit_structured", {
          [pathKey]: file,
          edits: [{ set: "name", value: "crème brûlée" }],
          encoding: "latin1",
        });
        expect(e.isError, e.text).toBe(false);
        const after = fs.readFileSync(path.join(root, "conf.yaml"));
        expect(after).toEqual(toBytes("# réglages\nname: crème brûlée\nsize: 2\n", "ISO-8859-1"));
        expect(toText(after, "ISO-8859-1")).toContain("réglages");
      } finally {
        await conn.close();
      }
    });
  }
});

describe("encodings: the code tools under --default-encoding", () => {
  it("outline and read_symbol read a Latin-1 file as text; replace_symbol writes it back in Latin-1", async () => {
    const source = '# réglages\ndef greet():\n    return "café"\n\n\ndef other():\n    return "crème"\n';
    const root = area.tree("code/latin1", { "m.py": toBytes(source, "ISO-8859-1") });
    const conn = await startServer(["--default-encoding", "latin1", root], {
      env: { MCPFS_STATE_DIR: path.join(root, "..", "state") },
    });
    try {
      const file = path.join(root, "m.py");
      const o = await conn.call("outline", { path: file });
      expect(o.isError, o.text).toBe(false);
      expect(o.text).toContain("greet");
      const r = await conn.call("read_symbol", { path: file, name: "greet" });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toContain('return "café"');
      const e = await conn.call("replace_symbol", {
        path: file,
        name: "greet",
        newText: 'def greet():\n    return "déjà vu"',
      });
      expect(e.isError, e.text).toBe(false);
      expect(fs.readFileSync(file)).toEqual(toBytes(source.replace('"café"', '"déjà vu"'), "ISO-8859-1"));
    } finally {
      await conn.close();
    }
  });
});

describe("encodings: read_document of a CSV follows the decode policy (both surfaces)", () => {
  const csv = "nom;prix;note\ncafé;2,50;crème\nthé;3;déjà vu\n";
  for (const surface of ["filesystem", "workspace"] as const) {
    it(`${surface}: a Latin-1 CSV is read under --default-encoding, refused by name without it`, async () => {
      const root = area.tree(`document/${surface}`, {
        "prix.csv": toBytes(csv, "ISO-8859-1"),
        "utf16.csv": Buffer.concat([Buffer.from([0xff, 0xfe]), toBytes(csv, "UTF-16LE")]),
      });
      const start = (extra: string[]) =>
        startServer([...extra, ...(surface === "filesystem" ? [root] : ["--project-dir", root])], {
          env: { MCPFS_STATE_DIR: path.join(root, "..", `state-${surface}-${extra.length}`) },
        });
      const args = (f: string) =>
        surface === "filesystem" ? { path: path.join(root, f) } : { file_path: f };
      const latin1 = await start(["--default-encoding", "latin1"]);
      try {
        const r = await latin1.call("read_document", args("prix.csv"));
        expect(r.isError, r.text).toBe(false);
        expect(r.text).toContain("| 2 | café | 2,50 | crème |");
        expect(r.text).toContain("| 3 | thé | 3 | déjà vu |");
        // A BOM decides before UTF-8 and the flag.
        const w = await latin1.call("read_document", args("utf16.csv"));
        expect(w.isError, w.text).toBe(false);
        expect(w.text).toContain("| 2 | café | 2,50 | crème |");
      } finally {
        await latin1.close();
      }
      const plain = await start([]);
      try {
        const r = await plain.call("read_document", args("prix.csv"));
        expect(r.isError).toBe(true);
        expect(r.text).toContain("prix.csv");
        expect(r.text).toMatch(/not .*UTF-8/i);
        expect(r.text).toContain("--default-encoding");
        expect(r.text).not.toContain("\uFFFD");
      } finally {
        await plain.close();
      }
    });
  }
});
