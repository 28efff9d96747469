import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { wordedRejection } from "../../../test/helpers/worded.js";
import type { Root } from "../workspace.js";
import { grep } from "./grep.js";
import type { GrepOptions } from "./grep-job.js";

const area = tempArea("mcpfs-grep-");
afterAll(() => area.cleanup());

const rootDir = area.tree("repo", {
  ".gitignore": "dist/\n*.log\ngenerated.ts\n",
  ".git/config": "needle in git internals\n",
  "a.ts": "const needle = 1;\nother\nNEEDLE upper\n",
  "generated.ts": "needle but gitignored\n",
  "b.js": "x\ny\nneedle in js\nz\nw\n",
  "notes.md": "line1\nline2\nline3\nneedle here\nline5\nline6\nneedle again\nline8\n",
  "crlf.txt": "ends with needle\r\nsecond\r\n",
  "no-newline.txt": "a\nlast needle",
  "dist/bundle.js": "needle in dist\n",
  "debug.log": "needle in a log\n",
  ".hidden/secret.ts": "needle hidden\n",
  "src/.gitignore": "skip-me/\n",
  "src/skip-me/x.ts": "needle skipped\n",
  "src/lib/util.ts": "export function needle() {}\n",
  "src/lib/util.test.ts": "needle test\n",
  "src/sub/deep.ts": "needle deep\n",
  "unicode.txt": "café needle ünïcode\n",
  "bin.dat": Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01, 0x02]),
  "long.txt": `${"x".repeat(5000)}needle${"y".repeat(5000)}\n`,
  "aaa.txt": `${"a".repeat(30000)}!\n`,
  ".mcpfs-0123456789abcdef.tmp": "needle in temp\n",
});
const root: Root = { path: rootDir, real: rootDir, mode: "rw", kind: "directory" };

type Case = Omit<GrepOptions, "root" | "start" | "gitignore"> & { start?: string; gitignore?: boolean };

const run = (engine: "rg" | "js", c: Case) =>
  grep({ root, gitignore: true, ...c, start: c.start ? path.join(rootDir, c.start) : rootDir, engine });

const cases: Record<string, Case> = {
  "literal over the tree": { pattern: "needle", literal: true },
  regex: { pattern: "need(le|ed) (here|again|deep)" },
  "case-insensitive": { pattern: "needle upper", caseSensitive: false, literal: true },
  "case-insensitive regex": { pattern: "^NEEDLE", caseSensitive: false },
  "glob *.ts": { pattern: "needle", globs: ["*.ts"] },
  "glob anchored": { pattern: "needle", globs: ["src/**"] },
  "negated glob": { pattern: "needle", globs: ["*.ts", "!*.test.ts"] },
  "only negated": { pattern: "needle", globs: ["!src"] },
  "context lines": { pattern: "needle (here|again)", contextLines: 2 },
  "files only": { pattern: "needle", filesOnly: true },
  "dollar before CRLF": { pattern: "needle$" },
  "no trailing newline": { pattern: "last" },
  "subdirectory start keeps ancestor rules": { pattern: "needle", start: "src" },
  "subdirectory with glob": { pattern: "needle", start: "src", globs: ["lib/*.ts"] },
  "single file": { pattern: "needle", start: "notes.md", contextLines: 1 },
  "no gitignore": { pattern: "needle", gitignore: false },
  unicode: { pattern: "ünïcode", literal: true },
  "no match": { pattern: "zzz-not-there", literal: true },
};

describe.each(["rg", "js"] as const)("grep with the %s engine", (engine) => {
  it("finds lines, sorted by path then line, with the walker's rules", async () => {
    const r = await run(engine, { pattern: "needle", literal: true });
    expect(r.engine).toBe(engine);
    const paths = r.matches.map((m) => m.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain(".hidden/secret.ts");
    for (const gone of [
      "dist/bundle.js",
      "debug.log",
      "generated.ts",
      "src/skip-me/x.ts",
      ".git/config",
      "bin.dat",
    ])
      expect(paths, gone).not.toContain(gone);
    expect(paths.some((p) => p.includes(".mcpfs-"))).toBe(false);
    expect(r.matches.find((m) => m.path === "b.js")).toEqual({
      path: "b.js",
      line: 3,
      text: "needle in js",
      before: [],
      after: [],
    });
    expect(r.matches.find((m) => m.path === "crlf.txt")?.text).toBe("ends with needle");
    expect(r.truncated).toBe(false);
  });

  it("gives context lines around a match", async () => {
    const r = await run(engine, { pattern: "needle here", contextLines: 2, literal: true });
    expect(r.matches).toEqual([
      {
        path: "notes.md",
        line: 4,
        text: "needle here",
        before: [
          { line: 2, text: "line2" },
          { line: 3, text: "line3" },
        ],
        after: [
          { line: 5, text: "line5" },
          { line: 6, text: "line6" },
        ],
      },
    ]);
  });

  it("cuts very long lines around the match with a marker", async () => {
    const r = await run(engine, { pattern: "needle", start: "long.txt" });
    const text = r.matches[0]!.text;
    // A 400-character window, and how much it leaves out on each side.
    const [, before, shown, after] = /^\[…(\d+) chars\] (x+needley+) \[…(\d+) more chars\]$/.exec(text)!;
    expect(shown!.length).toBe(400);
    expect(Number(before) + 400 + Number(after)).toBe(5000 + "needle".length + 5000);
  });

  it("caps results with maxResults and the byte budget, saying so", async () => {
    const r = await run(engine, { pattern: "needle", maxResults: 2 });
    expect(r.matches).toHaveLength(2);
    expect(r.truncated).toBe(true);
    const all = await run(engine, { pattern: "needle" });
    const exact = await run(engine, { pattern: "needle", maxResults: all.matches.length });
    expect(exact.truncated).toBe(false);
    const small = await run(engine, { pattern: "needle", budgetBytes: 100 });
    expect(small.truncated).toBe(true);
    expect(small.matches.length).toBeLessThan(all.matches.length);
    const files = await run(engine, { pattern: "needle", filesOnly: true, maxResults: 1 });
    expect(files.files).toHaveLength(1);
    expect(files.truncated).toBe(true);
  });

  it("answers a catastrophic-backtracking pattern on a long line", async () => {
    const r = await run(engine, { pattern: "(a+)+$", start: "aaa.txt" });
    expect(r.matches).toHaveLength(0);
    const hit = await run(engine, { pattern: "(a+)+!$", start: "aaa.txt" });
    expect(hit.matches).toHaveLength(1);
  });

  it("reports an invalid regular expression clearly", async () => {
    expect(await wordedRejection(run(engine, { pattern: "(unclosed" }))).toMatch(
      /Invalid regular expression/,
    );
  });

  it("is cancelled by the signal", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(
      grep({ root, start: rootDir, pattern: "needle", gitignore: true, engine, signal: ac.signal }),
    ).rejects.toMatchObject({ kind: "cancelled" });
  });
});

describe("the byte budget's page", () => {
  // One file deep in folders, many short matching lines: the reply prints its path once.
  const rel = "a-rather-long-folder-name/another-long-folder-name/with-a-long-file-name.txt";
  const dir = area.tree("budget", {
    [rel]: Array.from({ length: 400 }, (_, i) => `needle ${i}`).join("\n"),
  });
  const where: Root = { path: dir, real: dir, mode: "rw", kind: "directory" };
  for (const engine of ["rg", "js"] as const)
    it(`fills the budget as the heading layout prints it (${engine})`, async () => {
      const budgetBytes = 2000;
      const r = await grep({
        root: where,
        start: dir,
        gitignore: true,
        pattern: "needle",
        engine,
        budgetBytes,
      });
      expect(r.truncated).toBe(true);
      // The path once, then `line: text` rows: what the surfaces print, within the budget and filling it.
      const printed = `${rel}\n${r.matches.map((m) => `${m.line}: ${m.text}\n`).join("")}`;
      expect(printed.length).toBeLessThanOrEqual(budgetBytes);
      expect(printed.length).toBeGreaterThan(budgetBytes * 0.9);
    });
});

describe("both engines agree", () => {
  it.each(Object.entries(cases))("%s", async (_name, c) => {
    const [a, b] = await Promise.all([run("rg", c), run("js", c)]);
    expect(b.matches).toEqual(a.matches);
    expect(b.files).toEqual(a.files);
    expect(b.truncated).toBe(a.truncated);
    if (c.pattern === "needle" && !c.filesOnly) expect(a.matches.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(cases).filter(([, c]) => !c.contextLines))(
    "candidates (ripgrep's list, not read again) name the files the checked search names: %s",
    async (_name, c) => {
      const checked = await run("js", { ...c, filesOnly: true });
      const listed = await run("rg", { ...c, filesOnly: true, candidates: true });
      expect(listed.engine).toBe("rg");
      expect(listed.files).toEqual(checked.files);
    },
  );

  it("on a gitignored file a positive glob names (ripgrep's -g would override .gitignore)", async () => {
    const [a, b] = await Promise.all([
      run("rg", { pattern: "needle", globs: ["generated.ts", "*.log"] }),
      run("js", { pattern: "needle", globs: ["generated.ts", "*.log"] }),
    ]);
    expect(a.matches).toEqual([]);
    expect(b.matches).toEqual([]);
  });

  it("on a file swapped for a symlink (never followed)", async () => {
    const dir = area.tree("links", { "real.txt": "needle\n" });
    fs.symlinkSync(path.join(rootDir, "a.ts"), path.join(dir, "link.ts"));
    const r2: Root = { ...root, real: dir, path: dir };
    for (const engine of ["rg", "js"] as const) {
      const r = await grep({ root: r2, start: dir, pattern: "needle", gitignore: true, engine });
      expect(r.files).toEqual(["real.txt"]);
    }
  });
});

describe("a start inside an ignored folder", () => {
  it("is searched by every engine, as ripgrep searches a path it is given", async () => {
    for (const engine of ["auto", "rg", "js"] as const) {
      const r = await grep({
        root,
        gitignore: true,
        start: path.join(rootDir, "dist"),
        pattern: "needle",
        engine,
      });
      expect(r.files, engine).toEqual(["bundle.js"]);
      expect(r.ignored, engine).toBe(0);
    }
  });

  it("counts what the rules left out of the scope, the same with every engine", async () => {
    const counts = await Promise.all(
      (["auto", "rg", "js"] as const).map(
        async (engine) =>
          (await grep({ root, gitignore: true, start: rootDir, pattern: "needle", engine })).ignored,
      ),
    );
    expect(counts[0]).toBeGreaterThan(0);
    expect(new Set(counts).size).toBe(1);
  });
});

describe("auto engine", () => {
  const many = area.tree(
    "many",
    Object.fromEntries(
      Array.from({ length: 250 }, (_, i) => [`f${String(i).padStart(3, "0")}.txt`, `x\nneedle ${i}\n`]),
    ),
  );
  const manyRoot: Root = { path: many, real: many, mode: "rw", kind: "directory" };

  it("searches a small scope in process, with ripgrep's results", async () => {
    const auto = await grep({ root, gitignore: true, start: rootDir, pattern: "needle", engine: "auto" });
    const rg = await run("rg", { pattern: "needle" });
    expect(auto.engine).toBe("js");
    expect(auto.matches).toEqual(rg.matches);
    expect(auto.files).toEqual(rg.files);
  });

  it("hands a scope of more than 200 files to ripgrep", async () => {
    const r = await grep({ root: manyRoot, gitignore: true, start: many, pattern: "needle", engine: "auto" });
    expect(r.engine).toBe("rg");
    expect(r.files).toHaveLength(250);
  });

  it("finds every match of a folder-heavy scope whose first entries are not files", async () => {
    // Folders, then links and a socket-like crowd of non-files, created before the few deep files that
    // match: a probe that stops after 201 entries must not take the scope for a small one.
    const heavy = area.tree("folder-heavy");
    for (let i = 0; i < 300; i++)
      fs.mkdirSync(path.join(heavy, `d${String(i).padStart(3, "0")}`, "x", "y"), { recursive: true });
    for (let i = 0; i < 250; i++)
      fs.symlinkSync("nowhere", path.join(heavy, `l${String(i).padStart(3, "0")}`));
    for (let i = 0; i < 300; i += 7)
      fs.writeFileSync(
        path.join(heavy, `d${String(i).padStart(3, "0")}`, "x", "y", "deep.txt"),
        "a\nneedle deep\n",
      );
    const heavyRoot: Root = { path: heavy, real: heavy, mode: "rw", kind: "directory" };
    const job = { root: heavyRoot, gitignore: true, start: heavy, pattern: "needle", literal: true };
    const rg = await grep({ ...job, engine: "rg" });
    const auto = await grep({ ...job, engine: "auto" });
    expect(rg.files).toHaveLength(43);
    expect(auto.files).toEqual(rg.files);
    expect(auto.matches).toEqual(rg.matches);
    expect(auto.truncated).toBe(false);
  });

  it("hands a single file over 2 MiB to ripgrep", async () => {
    const big = path.join(many, "big.log");
    fs.writeFileSync(big, `${"filler line\n".repeat(200_000)}needle at the end\n`);
    const r = await grep({ root: manyRoot, gitignore: true, start: big, pattern: "needle", engine: "auto" });
    expect(r.engine).toBe("rg");
    expect(r.matches.map((m) => m.text)).toEqual(["needle at the end"]);
  });
});

describe("ripgrep names lines, the verified read gives their text", () => {
  const POSIX = process.platform !== "win32";

  it("finds the same lines as the js engine in a line of several MiB, across its windows", async () => {
    const dir = area.tree("long-lines", {
      "one.txt": `${"x".repeat(3 * 1024 * 1024)}needle at the end\nafter 1\nneedle again\nafter 2\n`,
      "two.txt": `before\n${"y".repeat(1024 * 1024 + 70_000)}needle${"z".repeat(2 * 1024 * 1024)}\nlast\n`,
    });
    const r2: Root = { ...root, real: dir, path: dir };
    const job = { root: r2, start: dir, pattern: "needle", gitignore: true, contextLines: 1 };
    const [a, b] = await Promise.all([grep({ ...job, engine: "rg" }), grep({ ...job, engine: "js" })]);
    expect(a.matches.map((m) => [m.path, m.line])).toEqual([
      ["one.txt", 1],
      ["one.txt", 3],
      ["two.txt", 2],
    ]);
    expect(b.matches).toEqual(a.matches);
    expect(a.matches[0]!.after).toEqual([{ line: 2, text: "after 1" }]);
    expect(a.matches[2]!.text).toContain("needle");
  });

  it.runIf(POSIX)(
    "reads past a binary file's warning and names with line breaks as the js engine",
    async () => {
      const dir = area.tree("warned", {
        "late.bin": Buffer.concat([
          Buffer.from(`needle first\n${"filler line\n".repeat(20_000)}`),
          Buffer.from([0, 10]),
          Buffer.from("needle after the NUL\n"),
        ]),
        "line\nbreak.txt": "needle in a name with a line break\n",
        "z: colon.txt": "x\nneedle z\n",
      });
      const r2: Root = { ...root, real: dir, path: dir };
      const job = { root: r2, start: dir, pattern: "needle", gitignore: true };
      const [a, b] = await Promise.all([grep({ ...job, engine: "rg" }), grep({ ...job, engine: "js" })]);
      expect(a.matches.map((m) => [m.path, m.line])).toEqual([
        ["late.bin", 1],
        ["line\nbreak.txt", 1],
        ["z: colon.txt", 2],
      ]);
      expect(b.matches).toEqual(a.matches);
    },
  );

  it.runIf(POSIX)("never searches a gitignored file a name made like a warning would point to", async () => {
    // ripgrep prints "./a.txt\0001:…" then "./<dir>/secret.env\0002:…" where <dir> begins with what a binary
    // warning of ./a.txt looks like: taken for warning + path, what is left names the ignored ./secret.env.
    const dir = area.tree("crafted", {
      ".gitignore": "/secret.env\n",
      "a.txt": "needle a\n",
      "secret.env": "needle SECRET\nneedle SECRET2\n",
    });
    const fake =
      'a.txt: WARNING: stopped searching binary file after match (found "\\0" byte around offset 7)\n.';
    fs.mkdirSync(path.join(dir, fake));
    fs.writeFileSync(path.join(dir, fake, "secret.env"), "x\nneedle crafted\n");
    const r2: Root = { ...root, real: dir, path: dir };
    for (const engine of ["rg", "auto"] as const) {
      const r = await grep({ root: r2, start: dir, pattern: "needle", gitignore: true, engine });
      expect(r.matches.map((m) => m.text).join("\n")).not.toContain("SECRET");
      expect(r.files).toContain("a.txt");
    }
  });
});

describe("a file in another encoding, decoded chunk by chunk", () => {
  // Lines whose characters straddle the 64 KiB chunks: 3 bytes per kana in UTF-8, 2 in Shift-JIS and UTF-16.
  const lines = Array.from(
    { length: 6000 },
    (_, i) => `${i + 1} ${"あいうえお".repeat(3)}${i % 1000 === 999 ? " 針" : ""}`,
  );
  const text = `${lines.join("\n")}\n`;
  const dir = area.tree("encoded", { "keep.txt": "針 in UTF-8\n" });
  const want = [1000, 2000, 3000, 4000, 5000, 6000];

  it("finds the same lines, with their numbers, in UTF-16 with a BOM and in the call's encoding", async () => {
    const iconv = (await import("iconv-lite")).default;
    fs.writeFileSync(
      path.join(dir, "utf16.txt"),
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, "utf-16le")]),
    );
    fs.writeFileSync(path.join(dir, "sjis.txt"), iconv.encode(text, "shift_jis"));
    expect(fs.statSync(path.join(dir, "sjis.txt")).size).toBeGreaterThan(3 * 64 * 1024);
    const r2: Root = { ...root, real: dir, path: dir };
    const r = await grep({
      root: r2,
      start: dir,
      pattern: "針",
      gitignore: false,
      engine: "js",
      encoding: "shift_jis",
    });
    const by = (f: string) => r.matches.filter((m) => m.path === f);
    for (const f of ["utf16.txt", "sjis.txt"]) {
      expect(
        by(f).map((m) => m.line),
        f,
      ).toEqual(want);
      expect(by(f)[0]!.text, f).toBe(lines[999]);
    }
    expect(by("keep.txt").map((m) => m.line)).toEqual([1]);
  });
});
