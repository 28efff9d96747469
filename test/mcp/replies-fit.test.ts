/**
 * At the default budget no reply is longer than a client keeps (Claude Code moves a result over 50,000
 * characters to a file and caps one at 25,000 tokens), every cut reply's last line names the parameter of a
 * tool of this surface that gets the next part, and following those lines gives everything back once: no
 * overlap, no gap.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const MAX_CHARS = 48_000;
const area = tempArea("mcpfs-fit-");
const root = area.tree("root");
/** ~400 KB of source-like text. */
const big = Array.from(
  { length: 8000 },
  (_, i) => `  const value${i} = compute(${i}, "some text here"); // line ${i + 1}`,
).join("\n");
fs.writeFileSync(path.join(root, "big.ts"), `${big}\n`);
const many = path.join(root, "many");
fs.mkdirSync(many);
const manyFiles: string[] = [];
for (let i = 0; i < 1000; i++) {
  const p = path.join(many, `f${String(i).padStart(4, "0")}.txt`);
  fs.writeFileSync(p, `file ${i}\nconst x = ${i};\n${"filler text ".repeat(8)}\n`);
  manyFiles.push(p);
}
const treeRoot = path.join(root, "tree");
const treeFiles: string[] = [];
for (let d = 0; d < 60; d++)
  for (let f = 0; f < 60; f++) {
    const rel = `dir-${String(d).padStart(2, "0")}/sub-${d % 3}/file-with-a-longer-name-${f}.txt`;
    fs.mkdirSync(path.dirname(path.join(treeRoot, rel)), { recursive: true });
    fs.writeFileSync(path.join(treeRoot, rel), "");
    treeFiles.push(rel);
  }
afterAll(() => area.cleanup());

let conn: Connection;
beforeAll(async () => {
  conn = await startServer([root]);
});
afterAll(() => conn?.close());

const lastLine = (text: string) => text.split("\n").at(-1) ?? "";

describe("replies at the default budget", () => {
  it("a large file: each part under 48,000 characters, the next startLine named, the file back whole", async () => {
    const lines: string[] = [];
    let next: number | undefined = 1;
    let parts = 0;
    while (next !== undefined) {
      expect(++parts).toBeLessThan(40);
      const r = await conn.call("read_text_file", {
        path: path.join(root, "big.ts"),
        ...(next > 1 ? { startLine: next } : {}),
      });
      expect(r.text.length).toBeLessThanOrEqual(MAX_CHARS);
      lines.push(...r.text.split("\n").filter((l) => !l.startsWith("[mcpfs:") && l !== ""));
      const m = /Read on with startLine=(\d+)\.\]$/.exec(lastLine(r.text));
      next = m ? Number(m[1]) : undefined;
    }
    expect(parts).toBeGreaterThan(1);
    expect(lines.join("\n")).toBe(big);
  });

  it("grep of a common word: pages named by offset, every match once", async () => {
    const seen = new Set<string>();
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      expect(++pages).toBeLessThan(40);
      const r = await conn.call("grep", { path: root, pattern: "const", literal: true, offset });
      expect(r.text.length).toBeLessThanOrEqual(MAX_CHARS);
      for (const m of r.structured!.matches as { path: string; line: number }[]) {
        const key = `${m.path}:${m.line}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
      const m = /Next page: offset=(\d+)\./.exec(lastLine(r.text));
      offset = m ? Number(m[1]) : undefined;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen.size).toBe(8000 + 1000);
  });

  it("a whole-tree listing: each part under 48,000 characters, cut directories named, every entry once", async () => {
    interface Node {
      name: string;
      type: string;
      children?: Node[];
      truncated?: boolean;
    }
    const seen: string[] = [];
    const queue = [""];
    let calls = 0;
    while (queue.length > 0) {
      expect(++calls).toBeLessThan(200);
      const sub = queue.shift()!;
      const r = await conn.call("directory_tree", { path: path.join(treeRoot, sub) });
      expect(r.text.length).toBeLessThanOrEqual(MAX_CHARS);
      const blocks = (r.raw.content as { text: string }[]).map((c) => c.text);
      const walk = (nodes: Node[], at: string) => {
        for (const n of nodes) {
          const rel = at ? `${at}/${n.name}` : n.name;
          if (n.type === "file") seen.push(rel);
          if (n.truncated) {
            // Shown empty, whole later: what was left out is exactly that directory's own tree.
            expect(n.children).toEqual([]);
            queue.push(rel);
          } else walk(n.children ?? [], rel);
        }
      };
      walk(JSON.parse(blocks[0]!), sub);
      if (blocks.length > 1) expect(blocks.at(-1)).toMatch(/subdirectory as path, a smaller maxDepth/);
    }
    expect(calls).toBeGreaterThan(1);
    expect(seen.sort()).toEqual([...treeFiles].sort());
  });

  it("read_multiple_files of 1,000 files: the paths index to go on from, every file once", async () => {
    const read: string[] = [];
    let from = 0;
    let calls = 0;
    while (from < manyFiles.length) {
      expect(++calls).toBeLessThan(60);
      const r = await conn.call("read_multiple_files", { paths: manyFiles.slice(from) });
      expect(r.text.length).toBeLessThanOrEqual(MAX_CHARS);
      const files = r.structured!.files as { path: string; skipped?: boolean; truncated?: boolean }[];
      const shown = files.filter((f) => !f.skipped);
      for (const f of shown) expect(f.truncated).toBe(false);
      read.push(...shown.map((f) => f.path));
      const m = /Read on with read_multiple_files from paths\[(\d+)\]/.exec(lastLine(r.text));
      if (m) expect(Number(m[1])).toBe(shown.length);
      from += shown.length;
      if (!m) expect(from).toBe(manyFiles.length);
    }
    expect(calls).toBeGreaterThan(1);
    expect(read).toEqual(manyFiles);
  });
});
