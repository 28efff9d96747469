/** mcpfs's filesystem surface beyond parity: structured output, budgets, errors, concurrency, unicode. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

/** Every structuredContent a test sees is validated against the tool's listed outputSchema. */
async function validating(conn: Connection): Promise<Connection & { checked: () => number }> {
  const ajv = new Ajv2020.default({ strict: false, allErrors: true });
  const validators = new Map<string, (v: unknown) => boolean>();
  for (const t of (await conn.client.listTools()).tools) validators.set(t.name, ajv.compile(t.outputSchema));
  let checked = 0;
  return {
    ...conn,
    checked: () => checked,
    async call(name: string, args?: Record<string, unknown>): Promise<TextResult> {
      const r = await conn.call(name, args);
      if (!r.isError) {
        const validate = validators.get(name) as ((v: unknown) => boolean) & { errors?: unknown };
        expect(r.structured, `${name} returns structuredContent`).toBeDefined();
        const ok = validate(r.structured);
        expect(ok, `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        if (r.raw.content[0]?.type === "text") expect(r.structured?.content).toBe(r.text);
        checked++;
      }
      return r;
    },
  };
}

describe.each(["v1", "v2"] as const)("every tool with the %s client", (client) => {
  let conn: Connection & { checked: () => number };
  let root: string;
  beforeAll(async () => {
    root = area.tree(`all-${client}`, {
      "a.txt": "alpha\nbeta\ngamma\n",
      "img.bin": Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"),
      "d/x.txt": "x",
      "empty/": null,
    });
    fs.symlinkSync("d", path.join(root, "dlink"));
    conn = await validating(await startServer([root], { client }));
  });
  afterAll(() => conn?.close());

  it("returns structuredContent valid against each declared outputSchema", async () => {
    const p = (rel: string) => path.join(root, rel);
    await conn.call("read_text_file", { path: p("a.txt") });
    await conn.call("read_file", { path: p("a.txt"), head: 1 });
    await conn.call("read_media_file", { path: p("img.bin") });
    await conn.call("read_multiple_files", { paths: [p("a.txt"), p("nope.txt")] });
    await conn.call("write_file", { path: p("w.txt"), content: "w" });
    await conn.call("edit_file", { path: p("w.txt"), edits: [{ oldText: "w", newText: "W" }] });
    await conn.call("create_directory", { path: p("made/deep") });
    await conn.call("list_directory", { path: root });
    await conn.call("list_directory_with_sizes", { path: root, sortBy: "size" });
    await conn.call("move_file", { source: p("w.txt"), destination: p("moved.txt") });
    await conn.call("get_file_info", { path: p("d") });
    await conn.call("list_allowed_directories");
    await conn.call("directory_tree", { path: root, excludePatterns: ["*.bin"] });
    await conn.call("search_files", { path: root, pattern: "**/*.txt" });
    expect(conn.checked()).toBe(14);
  });

  it("reports hashes and sizes of what was read and written", async () => {
    const content = "hash me\n";
    const w = await conn.call("write_file", { path: path.join(root, "h.txt"), content });
    const sha = createHash("sha256").update(content).digest("hex");
    expect(w.structured).toMatchObject({ bytes: 8, created: true, sha256: sha });
    const r = await conn.call("read_text_file", { path: path.join(root, "h.txt") });
    expect(r.structured).toMatchObject({ size: 8, truncated: false, sha256: sha, lines: 1 });
    const m = await conn.call("read_multiple_files", { paths: [path.join(root, "h.txt")] });
    expect(m.structured?.files).toEqual([
      {
        path: path.join(root, "h.txt"),
        ok: true,
        size: 8,
        truncated: false,
        sha256: sha,
        mtime: new Date(Math.trunc(fs.statSync(path.join(root, "h.txt")).mtimeMs)).toISOString(),
      },
    ]);
  });

  it("lists symlinks and entries as structured data", async () => {
    const r = await conn.call("list_directory", { path: root });
    const entries = r.structured?.entries as { name: string; type: string; linkTarget?: string }[];
    expect(entries.find((e) => e.name === "dlink")).toEqual({
      name: "dlink",
      type: "symlink",
      linkTarget: "d",
      linkTargetType: "dir",
    });
    const names = entries.map((e) => e.name);
    expect(names).toEqual([...names].sort());
  });
});

describe("errors name only the requested path", () => {
  let conn: Connection;
  let root: string;
  beforeAll(async () => {
    root = area.tree("errors", { "f.txt": "x", "d/": null });
    conn = await startServer([root], { cwd: area.base });
  });
  afterAll(() => conn?.close());

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["read_text_file", { path: "missing.txt" }, /^No such file or directory: missing\.txt$/],
    ["read_text_file", { path: "d" }, /^Is a directory, not a file: d$/],
    ["list_directory", { path: "f.txt" }, /^Not a directory: f\.txt$/],
    ["list_directory", { path: "nope" }, /^No such file or directory: nope$/],
    ["create_directory", { path: "f.txt" }, /not a directory: f\.txt/],
    ["move_file", { source: "nope", destination: "x" }, /^No such file or directory: nope$/],
    ["edit_file", { path: "missing.txt", edits: [] }, /^No such file or directory: missing\.txt$/],
    ["get_file_info", { path: "missing" }, /^No such file or directory: missing$/],
    ["read_media_file", { path: "d" }, /^Is a directory, not a file: d$/],
    ["write_file", { path: "d", content: "x" }, /^Is a directory, not a file: d$/],
    [
      "read_text_file",
      { path: "/etc/passwd" },
      /^Access denied - path outside allowed directories: \/etc\/passwd$/,
    ],
  ];
  it.each(cases)("%s %j", async (tool, args, want) => {
    const r = await conn.call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(want);
    expect(r.text).not.toContain(root);
    expect(r.text).not.toContain(area.base);
  });

  it("edit_file of a non-UTF-8 file: this surface's own wording, the bytes untouched", async () => {
    const bytes = Buffer.from([0x61, 0xff, 0x0a]);
    fs.writeFileSync(path.join(root, "bin.dat"), bytes);
    const r = await conn.call("edit_file", { path: "bin.dat", edits: [{ oldText: "a", newText: "b" }] });
    expect(r.isError).toBe(true);
    // The path, what is wrong, chardet's guess (stated as one), and how to name the encoding.
    expect(r.text).toMatch(
      /^Not a UTF-8 text file: bin\.dat\. (Likely encodings \(a guess by chardet\): .+|It looks binary|Its encoding could not be guessed)\. Pass `encoding` /,
    );
    expect(r.text).toContain("--default-encoding");
    expect(fs.readFileSync(path.join(root, "bin.dat"))).toEqual(bytes);
  });
});

describe("bounded outputs (--max-output-bytes 2048)", () => {
  let conn: Connection;
  let root: string;
  const BUDGET = 2048;
  beforeAll(async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n");
    root = area.tree("budget", {
      "big.txt": `${lines}\n`,
      "many/": null,
      // A TIFF: an image mcpfs does not scale, so the media limit holds (PNG, JPEG, WebP, GIF are scaled).
      "huge.tiff": Buffer.concat([Buffer.from("49492a00", "hex"), Buffer.alloc(2_500_004)]),
    });
    for (let i = 0; i < 300; i++)
      fs.writeFileSync(path.join(root, "many", `file-${String(i).padStart(3, "0")}.txt`), "");
    for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(root, `r${i}.txt`), "r".repeat(300));
    conn = await startServer(["--max-output-bytes", String(BUDGET), root]);
  });
  afterAll(() => conn?.close());
  const size = (r: TextResult) => Buffer.byteLength(r.text);

  it("cuts a whole-file read at a line break and says how to read the rest", async () => {
    const r = await conn.call("read_text_file", { path: path.join(root, "big.txt") });
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    expect(r.text).toMatch(/^line 1\nline 2\n/);
    expect(r.text).toMatch(
      /\nline \d+\n\n\[mcpfs: output truncated: the file has \d+ bytes; lines 1-\d+ fit/,
    );
    expect(r.structured).toMatchObject({ truncated: true });
    // The last line names the next startLine; following it from part to part gives the file back whole.
    const file = fs.readFileSync(path.join(root, "big.txt"), "utf8");
    const whole: string[] = [];
    let next: number | undefined = 1;
    for (let parts = 0; next !== undefined; parts++) {
      expect(parts).toBeLessThan(50);
      const args = next === 1 ? {} : { startLine: next };
      const part = await conn.call("read_text_file", { path: path.join(root, "big.txt"), ...args });
      expect(size(part)).toBeLessThanOrEqual(BUDGET);
      const last = part.text.split("\n").at(-1)!;
      const m = /(?:Read on with startLine=(\d+)\.\]$)/.exec(last);
      whole.push(...part.text.split("\n").filter((l) => l.startsWith("line ")));
      next = m ? Number(m[1]) : undefined;
    }
    expect(whole.join("\n")).toBe(file.replace(/\n+$/, ""));
  });

  it("head and tail keep whole lines within the budget", async () => {
    const h = await conn.call("read_text_file", { path: path.join(root, "big.txt"), head: 400 });
    expect(size(h)).toBeLessThanOrEqual(BUDGET);
    expect(h.text).toMatch(/^line 1\n/);
    expect(h.text.split("\n").at(-1)).toMatch(/Read on with startLine=\d+\.\]$/);
    const t = await conn.call("read_text_file", { path: path.join(root, "big.txt"), tail: 400 });
    expect(size(t)).toBeLessThanOrEqual(BUDGET);
    expect(t.text).toContain("\nline 500\n");
    const shown = t.text.split("\n").filter((l) => l.startsWith("line ")).length;
    expect(t.text.split("\n").at(-1)).toBe(
      `[mcpfs: output truncated: only the last ${shown} of the 400 requested lines fit in ${BUDGET} bytes. ` +
        `Earlier lines: startLine=101, endLine=${500 - shown}.]`,
    );
  });

  it("truncates listings with a count of what was left out", async () => {
    const r = await conn.call("list_directory", { path: path.join(root, "many") });
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    expect(r.text).toMatch(/\[mcpfs: output truncated: showing \d+ of 300 entries/);
    const s = await conn.call("list_directory_with_sizes", { path: path.join(root, "many") });
    expect(size(s)).toBeLessThanOrEqual(BUDGET);
    expect(s.text).toContain("Total: 300 files, 0 directories");
  });

  it("read_multiple_files shares the budget and marks what it could not show", async () => {
    const paths = Array.from({ length: 30 }, (_, i) => path.join(root, `r${i}.txt`));
    const r = await conn.call("read_multiple_files", { paths });
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    const files = r.structured?.files as { skipped?: boolean }[];
    expect(files).toHaveLength(30);
    const first = files.findIndex((f) => f.skipped);
    expect(first).toBeGreaterThan(0);
    expect(r.text.split("\n").at(-1)).toBe(
      `[mcpfs: the reply budget of ${BUDGET} bytes is used up; ${30 - first} of 30 files not read. ` +
        `Read on with read_multiple_files from paths[${first}] = ${JSON.stringify(paths[first])}.]`,
    );
    // Following the notes reads every file exactly once.
    const read: string[] = [];
    for (let from = 0, calls = 0; from < paths.length; calls++) {
      expect(calls).toBeLessThan(30);
      const page = await conn.call("read_multiple_files", { paths: paths.slice(from) });
      expect(size(page)).toBeLessThanOrEqual(BUDGET);
      const got = (
        page.structured!.files as { path: string; skipped?: boolean; truncated?: boolean }[]
      ).filter((f) => !f.skipped);
      for (const f of got) expect(f.truncated).toBe(false);
      read.push(...got.map((f) => f.path));
      const m = /from paths\[(\d+)\]/.exec(page.text.split("\n").at(-1)!);
      from += m ? Number(m[1]) : got.length;
    }
    expect(read).toEqual(paths);
  });

  it("edit_file cuts a long diff but still applies the edit", async () => {
    const p = path.join(root, "big.txt");
    const r = await conn.call("edit_file", {
      path: p,
      edits: [{ oldText: "line", newText: "LINE", replaceAll: true }],
    });
    expect(r.isError).toBe(false);
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    expect(r.text).toContain("diff truncated");
    expect(fs.readFileSync(p, "utf8").startsWith("LINE 1\nLINE 2\n")).toBe(true);
  });

  it("directory_tree keeps the top levels, stays valid JSON and flags cut directories", async () => {
    const r = await conn.call("directory_tree", { path: root });
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    const tree = JSON.parse(r.raw.content[0].text) as { name: string; truncated?: boolean }[];
    expect(r.raw.content[1].text).toMatch(
      /^\[mcpfs: output truncated: showing \d+ of \d+ entries.*Pass a subdirectory/,
    );
    expect(tree.map((e) => e.name)).toContain("many");
    expect(tree.find((e) => e.name === "many")?.truncated).toBe(true);
    expect(r.structured).toMatchObject({ truncated: true });
  });

  it("search_files stops at the budget and says how to narrow it", async () => {
    const r = await conn.call("search_files", { path: root, pattern: "**/*.txt" });
    expect(size(r)).toBeLessThanOrEqual(BUDGET);
    expect(r.text).toMatch(/\[mcpfs: output truncated: showing \d+ matches; more exist\. Narrow the pattern/);
  });

  it("read_media_file refuses a file over the media limit instead of flooding the client", async () => {
    const r = await conn.call("read_media_file", { path: path.join(root, "huge.tiff") });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^File too large to return as media: .*huge\.tiff is 2500008 bytes/);
  });
});

describe("concurrency, unicode and empty directories", () => {
  let conn: Connection;
  let root: string;
  beforeAll(async () => {
    root = area.tree("misc", { "empty/": null, "ünï/日本 ☕.txt": "tea" });
    conn = await startServer([root]);
  });
  afterAll(() => conn?.close());

  it("runs 40 concurrent writes, reads and edits without loss", async () => {
    const names = Array.from({ length: 20 }, (_, i) => path.join(root, `c${i}.txt`));
    await Promise.all(names.map((p, i) => conn.call("write_file", { path: p, content: `v${i}\n` })));
    const results = await Promise.all([
      ...names.map((p, i) =>
        conn.call("edit_file", { path: p, edits: [{ oldText: `v${i}`, newText: `e${i}` }] }),
      ),
      ...names.map((p) => conn.call("get_file_info", { path: p })),
    ]);
    expect(results.every((r) => !r.isError)).toBe(true);
    names.forEach((p, i) => {
      expect(fs.readFileSync(p, "utf8")).toBe(`e${i}\n`);
    });
    expect(fs.readdirSync(root).filter((n) => n.includes(".mcpfs-"))).toEqual([]);
  });

  it("handles unicode names in every tool", async () => {
    const dir = path.join(root, "ünï");
    expect((await conn.call("list_directory", { path: dir })).text).toBe("[FILE] 日本 ☕.txt");
    expect((await conn.call("read_text_file", { path: path.join(dir, "日本 ☕.txt") })).text).toBe("tea");
    await conn.call("move_file", {
      source: path.join(dir, "日本 ☕.txt"),
      destination: path.join(dir, "中文 ✓.txt"),
    });
    expect((await conn.call("get_file_info", { path: path.join(dir, "中文 ✓.txt") })).text).toMatch(
      /^size: 3\n/,
    );
  });

  it("handles empty directories", async () => {
    const e = path.join(root, "empty");
    expect((await conn.call("list_directory", { path: e })).text).toBe("");
    expect((await conn.call("list_directory_with_sizes", { path: e })).structured).toMatchObject({
      totalFiles: 0,
      totalDirectories: 0,
      combinedSize: 0,
    });
  });

  it("edit_file replaceAll and dryRun through the tool", async () => {
    const p = path.join(root, "ra.txt");
    fs.writeFileSync(p, "a-a-a\n");
    const dry = await conn.call("edit_file", {
      path: p,
      edits: [{ oldText: "a", newText: "b", replaceAll: true }],
      dryRun: true,
    });
    expect(dry.structured).toMatchObject({ changed: true, written: false });
    expect(fs.readFileSync(p, "utf8")).toBe("a-a-a\n");
    await conn.call("edit_file", { path: p, edits: [{ oldText: "a", newText: "b", replaceAll: true }] });
    expect(fs.readFileSync(p, "utf8")).toBe("b-b-b\n");
  });

  it("list_directory_with_sizes counts links separately and sizes in-root link targets never", async () => {
    const d = area.tree("misc/links", { "f.txt": "12345" });
    fs.symlinkSync("f.txt", path.join(d, "l"));
    const r = await conn.call("list_directory_with_sizes", { path: d });
    expect(r.text).toBe(
      [
        `[FILE] ${"f.txt".padEnd(30)} ${"5 B".padStart(10)}`,
        `[LINK] ${"l".padEnd(30)} -> f.txt`,
        "",
        "Total: 1 files, 0 directories, 1 links",
        "Combined size: 5 B",
      ].join("\n"),
    );
  });
});

describe("walks: .gitignore, --no-gitignore, maxDepth", () => {
  const files = {
    ".gitignore": "build/\n",
    ".git/HEAD": "ref",
    "build/out.ts": "",
    "src/a/b/c.ts": "",
    "empty/": null,
  };
  let on: Connection;
  let off: Connection;
  let root: string;
  beforeAll(async () => {
    root = area.tree("walks", files);
    [on, off] = await Promise.all([startServer([root]), startServer(["--no-gitignore", root])]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  it("skips ignored paths and .git/ by default; --no-gitignore restores the official behaviour", async () => {
    const a = await on.call("search_files", { path: root, pattern: "**/*.ts" });
    expect(a.text.split("\n")[0]).toBe(path.join(root, "src/a/b/c.ts"));
    expect(a.text).toMatch(
      /\[mcpfs: \d+ ignored entr(y|ies) skipped \(\.gitignore rules\); includeIgnored=true/,
    );
    const b = await off.call("search_files", { path: root, pattern: "**/*" });
    expect(b.text.split("\n")).toEqual(
      expect.arrayContaining([path.join(root, "build/out.ts"), path.join(root, ".git/HEAD")]),
    );
  });

  it("directory_tree maxDepth 1 lists direct children only; an empty directory is []", async () => {
    const t = JSON.parse((await on.call("directory_tree", { path: root, maxDepth: 1 })).raw.content[0].text);
    expect(t.map((e: { name: string }) => e.name)).toEqual([".gitignore", "empty", "src"]);
    expect(t.find((e: { name: string }) => e.name === "src").children).toEqual([]);
    expect((await on.call("directory_tree", { path: path.join(root, "empty") })).text).toBe("[]");
  });

  it("refuses a maxDepth below 1", async () => {
    const r = await on.call("directory_tree", { path: root, maxDepth: 0 });
    expect(r.isError).toBe(true);
  });
});
