import path from "node:path";
import { Ajv2020 as Ajv } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-fsgrep-");
const root = area.tree("root", {
  ".gitignore": "ignored/\n",
  "src/a.ts": "one\ntwo needle\nthree\nfour needle\nfive\nsix\nseven\neight\nneedle nine\n",
  "src/b.js": "needle in js\n",
  "ignored/c.ts": "needle ignored\n",
  "docs/readme.md": "no match here\n",
  "ind/x.py": "def f():\n    deepword()\n",
  ...Object.fromEntries(
    Array.from({ length: 60 }, (_, i) => [
      `many/f${String(i).padStart(2, "0")}.txt`,
      `needle ${"x".repeat(40)}\n`,
    ]),
  ),
});
const outside = area.tree("outside", { "secret.txt": "needle outside\n" });
afterAll(() => area.cleanup());

describe.each(["rg", "js"] as const)("grep tool (%s engine)", (engine) => {
  let conn: Connection;
  let validate: (v: unknown) => boolean;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", "2048", root], { env: { MCPFS_GREP_ENGINE: engine } });
    const tools = (await conn.client.listTools()).tools as { name: string; outputSchema: object }[];
    const tool = tools.find((t) => t.name === "grep")!;
    validate = new Ajv({ strict: false }).compile(tool.outputSchema);
  });
  afterAll(() => conn.close());

  it("replies with each file's path once, relative to path, then line: text rows; structured matches", async () => {
    const r = await conn.call("grep", { path: "src", pattern: "needle" });
    expect(r.isError).toBe(false);
    expect(r.text).toBe(
      ["a.ts", "2: two needle", "4: four needle", "9: needle nine", "", "b.js", "1: needle in js"].join("\n"),
    );
    expect(validate(r.structured)).toBe(true);
    expect(r.structured).toMatchObject({
      content: r.text,
      files: ["src/a.ts", "src/b.js"],
      truncated: false,
      matches: [{ path: "src/a.ts", line: 2, text: "two needle" }, {}, {}, { path: "src/b.js", line: 1 }],
    });
  });

  it("prints context once, marks gaps, and names absolute paths as given", async () => {
    const r = await conn.call("grep", {
      path: path.join(root, "src/a.ts"),
      pattern: "needle",
      contextLines: 1,
    });
    const p = path.join(root, "src/a.ts");
    expect(r.text).toBe(
      [
        p,
        "1- one",
        "2: two needle",
        "3- three",
        "4: four needle",
        "5- five",
        "--",
        "8- eight",
        "9: needle nine",
      ].join("\n"),
    );
    expect(validate(r.structured)).toBe(true);
    expect(r.structured).toMatchObject({ files: [p], matches: [{ path: p, line: 2 }, {}, {}] });
  });

  it("trims the indentation of a line shown alone (ripgrep's --trim), keeps it with context", async () => {
    const alone = await conn.call("grep", { path: "ind", pattern: "deepword" });
    expect(alone.text).toBe("x.py\n2: deepword()");
    expect(alone.structured).toMatchObject({ matches: [{ text: "    deepword()" }] });
    const ctx = await conn.call("grep", { path: "ind", pattern: "deepword", contextLines: 1 });
    expect(ctx.text).toBe("x.py\n1- def f():\n2:     deepword()");
  });

  it("filters with glob, honours .gitignore, lists files only", async () => {
    const r = await conn.call("grep", {
      path: ".",
      pattern: "NEEDLE",
      caseSensitive: false,
      glob: "*.ts",
      filesOnly: true,
    });
    // ignored/ is left out, and the reply says so.
    expect(r.text).toBe(
      "src/a.ts\n\n[mcpfs: 1 ignored entry skipped (.gitignore rules); includeIgnored=true includes them.]",
    );
    expect(r.structured).toMatchObject({ files: ["src/a.ts"], matches: [] });
    const lit = await conn.call("grep", { path: ".", pattern: "needle.", literal: true });
    expect(lit.text).toMatch(/^No matches found\n\n\[mcpfs: 1 ignored entry skipped/);
  });

  it("bounds the reply and says how to narrow the search", async () => {
    const r = await conn.call("grep", { path: "many", pattern: "needle" });
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(2048);
    expect(r.text).toMatch(/\[mcpfs: matches 1-\d+ shown; more exist\. Next page: offset=\d+\./);
    expect(r.text).toContain("glob");
    expect(r.structured?.truncated).toBe(true);
    expect(validate(r.structured)).toBe(true);
    const few = await conn.call("grep", { path: "many", pattern: "needle", maxResults: 3 });
    expect(few.text.split("\n").filter((l) => l.startsWith("1: needle"))).toHaveLength(3);
    expect(few.text).toContain("Next page: offset=3.");
  });

  it("pages through every match with offset: no overlap, no gap, whatever cut each page", async () => {
    const seen: string[] = [];
    for (let offset = 0, pages = 0; ; pages++) {
      expect(pages).toBeLessThan(60);
      const r = await conn.call("grep", { path: ".", pattern: "needle", offset });
      expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(2048);
      expect(validate(r.structured)).toBe(true);
      const matches = r.structured!.matches as { path: string; line: number }[];
      seen.push(...matches.map((m) => `${m.path}:${m.line}`));
      const next = /Next page: offset=(\d+)\./.exec(r.text.split("\n").at(-1) ?? "");
      if (!next) {
        expect(r.structured?.truncated).toBe(false);
        break;
      }
      offset = Number(next[1]);
      expect(offset).toBe(seen.length);
    }
    // Everything one unbounded search finds (60 files, src/a.ts thrice, src/b.js), once each, in order.
    expect(seen).toHaveLength(64);
    expect(new Set(seen).size).toBe(64);
    expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : 1)));
  });

  it("refuses paths outside the roots and bad patterns, without leaking", async () => {
    const out = await conn.call("grep", { path: outside, pattern: "needle" });
    expect(out.isError).toBe(true);
    expect(out.text).not.toContain("needle outside");
    expect(out.text).not.toContain(root);
    const bad = await conn.call("grep", { path: ".", pattern: "(unclosed" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/Invalid regular expression/);
    const missing = await conn.call("grep", { path: "nope", pattern: "x" });
    expect(missing.isError).toBe(true);
  });
});
