/**
 * Differential property, black-box through the MCP client: on random trees, search_files, directory_tree and
 * list_directory return exactly what a plain recursive readdir + `ignore` walk returns — whole when it fits,
 * and when the output budget cuts, a part of it and a reply that says so. A few grep calls through the
 * client (each engine choice) against the shipped rg binary close the loop on the tool as users call it.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import picomatch from "picomatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRipgrep } from "../../src/core/search/grep-rg.js";
import { tempArea } from "../helpers/fixtures.js";
import {
  byPathSegments,
  type RefEntry,
  referenceWalk,
  rgReference,
  treeSpec,
  writeTree,
} from "../helpers/random-tree.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-diff-walk-");
const base = area.base;
let full: Connection;
let tight: Connection;
const engines: Record<string, Connection> = {};
/** The smallest budget the CLI accepts: most trees are cut. */
const TIGHT = 1024;

beforeAll(async () => {
  full = await startServer([base]);
  tight = await startServer(["--max-output-bytes", String(TIGHT), base]);
  for (const e of ["auto", "rg", "js"])
    engines[e] = e === "auto" ? full : await startServer([base], { env: { MCPFS_GREP_ENGINE: e } });
});
afterAll(async () => {
  await Promise.all([full, tight, engines.rg, engines.js].map((c) => c?.close()));
  area.cleanup();
});

interface TreeNode {
  name: string;
  type: string;
  children?: TreeNode[];
  truncated?: boolean;
}

const typeName = (t: RefEntry["type"]) => (t === "dir" ? "directory" : t);

/** The reference tree as directory_tree shows it (children by name; symlink targets left out). */
function refTree(entries: RefEntry[]): TreeNode[] {
  const byParent = new Map<string, RefEntry[]>();
  for (const e of entries) {
    const parent = path.posix.dirname(e.rel) === "." ? "" : path.posix.dirname(e.rel);
    byParent.set(parent, [...(byParent.get(parent) ?? []), e]);
  }
  const build = (rel: string): TreeNode[] =>
    (byParent.get(rel) ?? [])
      .sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
      .map((e) => {
        const node: TreeNode = { name: path.posix.basename(e.rel), type: typeName(e.type) };
        if (e.type === "dir") node.children = build(e.rel);
        return node;
      });
  return build("");
}

function strip(nodes: TreeNode[]): TreeNode[] {
  return nodes.map((n) => {
    const out: TreeNode = { name: n.name, type: n.type };
    if (n.children) out.children = strip(n.children);
    return out;
  });
}

/** Nodes in breadth-first order, children by name: the order in which the budget keeps them. */
function breadthFirst(nodes: TreeNode[], prefix = ""): string[] {
  const out: string[] = [];
  let level: { n: TreeNode; rel: string }[] = nodes.map((n) => ({ n, rel: `${prefix}${n.name}` }));
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { n, rel } of level) {
      out.push(rel);
      for (const c of n.children ?? []) next.push({ n: c, rel: `${rel}/${c.name}` });
    }
    level = next;
  }
  return out;
}

/** Every shown node that had children left out must say so. */
function checkMarks(shown: TreeNode[], ref: TreeNode[]): void {
  for (const n of shown) {
    const r = ref.find((x) => x.name === n.name)!;
    expect(r, n.name).toBeDefined();
    if (n.type !== "directory") continue;
    if ((n.children ?? []).length < (r.children ?? []).length) expect(n.truncated, n.name).toBe(true);
    checkMarks(n.children ?? [], r.children ?? []);
  }
}

const PATTERNS = ["**", "**/*.txt", "*", "**/b*", "**/.*", "a/**"];
const EXCLUDES = ["node_modules", "*.log", "b"];

describe("listings against a plain readdir + ignore walk", () => {
  it("search_files, directory_tree and list_directory return the reference, whole or honestly cut", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        treeSpec,
        fc.constantFrom(...PATTERNS),
        fc.subarray(EXCLUDES, { maxLength: 1 }),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (spec, pattern, excludes, maxDepth) => {
          const tree = path.join(base, `w${n++}`);
          writeTree(tree, spec);
          try {
            const all = referenceWalk(tree);
            const names = excludes.map((x) => picomatch(x, { dot: true }));
            const excluded = (rel: string) =>
              rel.split("/").some((seg, i, segs) => names.some((m) => m(seg)) && i <= segs.length - 1);
            const kept = all.filter((e) => !excluded(e.rel));

            // search_files: every kept entry whose relative path matches the glob.
            const isMatch = picomatch(pattern, { dot: true });
            const want = kept.filter((e) => isMatch(e.rel)).map((e) => e.rel);
            const sf = await full.call("search_files", { path: tree, pattern, excludePatterns: excludes });
            expect(sf.isError, sf.text).toBe(false);
            expect(sf.structured?.matches, "search_files").toEqual([...want].sort(byPathSegments));
            expect(sf.structured?.truncated).toBe(false);
            const sfCut = await tight.call("search_files", {
              path: tree,
              pattern,
              excludePatterns: excludes,
            });
            const got = (sfCut.structured?.matches as string[]) ?? [];
            for (const g of got) expect(want, `search_files (cut) ${g}`).toContain(g);
            expect(sfCut.structured?.truncated, "search_files cut flag").toBe(got.length < want.length);
            if (got.length < want.length)
              expect(sfCut.text).toMatch(/output truncated: showing \d+ matches; more exist/);

            // directory_tree: the whole reference tree (to maxDepth), or its breadth-first head when cut.
            const depthKept = referenceWalk(tree, { gitignore: true, maxDepth }).filter(
              (e) => !excluded(e.rel),
            );
            const ref = refTree(depthKept);
            const args = { path: tree, excludePatterns: excludes, ...(maxDepth ? { maxDepth } : {}) };
            const dt = await full.call("directory_tree", args);
            expect(dt.isError, dt.text).toBe(false);
            // A whole tree is one block, and a second one only to say what the ignore rules left out.
            const [treeBlock, ...rest] = dt.raw.content as { text: string }[];
            for (const b of rest) expect(b.text).toMatch(/^\[mcpfs: \d+ ignored entr(y|ies) skipped/);
            expect(strip(JSON.parse(treeBlock!.text)), "directory_tree").toEqual(ref);
            expect(dt.structured?.totalEntries).toBe(depthKept.length);
            expect(dt.structured?.truncated).toBe(false);
            const dtCut = await tight.call("directory_tree", args);
            const shown = JSON.parse(dtCut.raw.content[0].text) as TreeNode[];
            const order = breadthFirst(ref);
            const shownOrder = breadthFirst(shown);
            expect(shownOrder, "directory_tree (cut) keeps a breadth-first head").toEqual(
              order.slice(0, shownOrder.length),
            );
            expect(dtCut.structured?.truncated).toBe(shownOrder.length < order.length);
            if (shownOrder.length < order.length)
              expect(dtCut.raw.content[1]?.text).toMatch(
                new RegExp(
                  `output truncated: showing ${shownOrder.length} of ${order.length} entries.*Pass a subdirectory`,
                ),
              );
            else expect(dtCut.raw.content[1]?.text ?? "").not.toContain("truncated");
            checkMarks(shown, ref);

            // list_directory: the plain readdir (no ignore rules, as the official server), by name.
            const dirs = ["", ...all.filter((e) => e.type === "dir").map((e) => e.rel)].slice(0, 3);
            for (const d of dirs) {
              const abs = d === "" ? tree : path.join(tree, d);
              const plain = fs
                .readdirSync(abs, { withFileTypes: true })
                .map((x) => ({
                  name: x.name,
                  type: x.isSymbolicLink()
                    ? "symlink"
                    : x.isDirectory()
                      ? "dir"
                      : x.isFile()
                        ? "file"
                        : "other",
                }))
                .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
              const ld = await full.call("list_directory", { path: abs });
              const entries = ((ld.structured?.entries ?? []) as { name: string; type: string }[]).map(
                (e) => ({
                  name: e.name,
                  type: e.type,
                }),
              );
              expect(entries, `list_directory ${d}`).toEqual(plain);
              const ldCut = await tight.call("list_directory", { path: abs });
              const cut = ((ldCut.structured?.entries ?? []) as { name: string; type: string }[]).map(
                (e) => ({
                  name: e.name,
                  type: e.type,
                }),
              );
              expect(cut, `list_directory (cut) ${d}`).toEqual(plain.slice(0, cut.length));
              expect(ldCut.structured?.truncated).toBe(cut.length < plain.length);
              if (cut.length < plain.length)
                expect(ldCut.text).toMatch(/output truncated: showing \d+ of \d+ entries/);
            }
          } finally {
            fs.rmSync(tree, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 50 },
    );
  }, 180_000);
});

describe("grep through the MCP client against the shipped rg binary", () => {
  it("returns rg's lines with each engine choice", async () => {
    const rgPath = await findRipgrep();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(treeSpec, fc.constantFrom("needle", "café", "^foo"), async (spec, pattern) => {
        const tree = path.join(base, `g${n++}`);
        writeTree(tree, spec);
        try {
          const literal = pattern !== "^foo";
          const ref = rgReference(rgPath!, tree, {
            start: "",
            pattern,
            literal,
            caseSensitive: true,
            contextLines: 0,
            globs: [],
          });
          // Lines as the tool shows them: cut to a window when long, so compare (file, line) and short texts.
          const want = [...ref]
            .map((l) => l.split("\t"))
            .map(([p, line, text]) => ({ p, line: Number(line), text }));
          for (const [engine, conn] of Object.entries(engines)) {
            const r = await conn.call("grep", { path: tree, pattern, literal, maxResults: 100_000 });
            expect(r.isError, r.text).toBe(false);
            const got = ((r.structured?.matches ?? []) as { path: string; line: number; text: string }[]).map(
              (m) => ({
                p: path.relative(tree, m.path).split(path.sep).join("/"),
                line: m.line,
                text: m.text,
              }),
            );
            const key = (x: { p?: string; line: number }) => `${x.p}:${x.line}`;
            expect(got.map(key).sort(), engine).toEqual(want.map(key).sort());
            for (const w of want) {
              if (w.text!.length > 400) continue;
              expect(got.find((g) => key(g) === key(w))?.text, `${engine} ${key(w)}`).toBe(w.text);
            }
            expect(r.structured?.truncated, engine).toBe(false);
          }
        } finally {
          fs.rmSync(tree, { recursive: true, force: true });
        }
      }),
      { numRuns: 15 },
    );
  }, 180_000);
});
