/**
 * Differential property: on random trees, grep with every engine choice (auto — which may take the
 * in-process shortcut —, rg, js) returns exactly the (file, line, text) set the shipped rg binary returns.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { grep } from "../../src/core/search/grep.js";
import type { GrepResult } from "../../src/core/search/grep-job.js";
import { findRipgrep } from "../../src/core/search/grep-rg.js";
import type { Root } from "../../src/core/workspace.js";
import { tempArea } from "../helpers/fixtures.js";
import { type LineSet, referenceWalk, rgReference, treeSpec, writeTree } from "../helpers/random-tree.js";

const area = tempArea("mcpfs-diff-grep-");
afterAll(() => area.cleanup());

const PATTERNS: { pattern: string; literal: boolean; caseSensitive: boolean }[] = [
  { pattern: "needle", literal: true, caseSensitive: true },
  { pattern: "café", literal: true, caseSensitive: true },
  { pattern: "needle", literal: true, caseSensitive: false },
  { pattern: "straße", literal: true, caseSensitive: false },
  { pattern: "fo+ b", literal: false, caseSensitive: true },
  { pattern: "^needle", literal: false, caseSensitive: true },
  { pattern: "needle$", literal: false, caseSensitive: true },
  { pattern: "\\bbar\\b", literal: false, caseSensitive: true },
  { pattern: "(foo|baz) ", literal: false, caseSensitive: true },
  { pattern: "[ÉE]COLE", literal: false, caseSensitive: true },
  { pattern: "école", literal: false, caseSensitive: false },
  { pattern: "日本", literal: false, caseSensitive: true },
  { pattern: "x{3}", literal: false, caseSensitive: true },
  { pattern: "caf.", literal: false, caseSensitive: true },
];
const GLOBS = ["*.txt", "!*.log", "src/**", "*.md", "!a", "**/b/*"];

const options = fc.record({
  pat: fc.constantFrom(...PATTERNS),
  contextLines: fc.constantFrom(0, 0, 1, 2),
  globs: fc.subarray(GLOBS, { maxLength: 2 }),
  filesOnly: fc.constantFrom(false, false, false, true),
  /** Which start: the tree, else one of its kept folders or files (index). */
  start: fc.option(fc.nat(100), { nil: undefined, freq: 2 }),
});

/** The set an mcpfs result stands for, in rgReference's form. */
function lineSet(r: GrepResult): LineSet {
  const out: LineSet = new Set();
  const hits = new Set(r.matches.map((m) => `${m.path}\t${m.line}`));
  for (const m of r.matches) {
    out.add(`${m.path}\t${m.line}\t${m.text}`);
    for (const c of [...m.before, ...m.after])
      if (!hits.has(`${m.path}\t${c.line}`)) out.add(`${m.path}\t${c.line}\t-\t${c.text}`);
  }
  return out;
}

const filesOf = (s: LineSet) => [...new Set([...s].map((l) => l.split("\t")[0]!))].sort();

describe("grep: every engine choice against the shipped rg binary", () => {
  it("returns exactly rg's (file, line, text) set on random trees", async () => {
    const rgPath = await findRipgrep();
    expect(rgPath).toBeTruthy();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(treeSpec, options, async (spec, o) => {
        const tree = path.join(area.base, `t${n++}`);
        writeTree(tree, spec);
        try {
          const kept = referenceWalk(tree).filter((e) => e.type === "dir" || e.type === "file");
          const start = o.start === undefined || kept.length === 0 ? "" : kept[o.start % kept.length]!.rel;
          const ref = rgReference(rgPath!, tree, {
            ...o.pat,
            start,
            contextLines: o.contextLines,
            globs: o.globs,
          });
          const root: Root = { path: tree, real: tree, mode: "rw", kind: "directory" };
          for (const engine of ["auto", "rg", "js"] as const) {
            const r = await grep({
              root,
              start: path.join(tree, start),
              ...o.pat,
              contextLines: o.contextLines,
              globs: o.globs,
              filesOnly: o.filesOnly,
              gitignore: true,
              engine,
              formatLine: (t) => t,
            });
            expect(r.truncated, engine).toBe(false);
            if (o.filesOnly) expect(r.files, `${engine} (files only)`).toEqual(filesOf(ref));
            else expect([...lineSet(r)].sort(), engine).toEqual([...ref].sort());
          }
        } finally {
          fs.rmSync(tree, { recursive: true, force: true });
        }
      }),
      {
        numRuns: 60,
        // Found by this property: a file named `src` matched the glob `src/**` in the in-process engine;
        // a file named by the search whose NUL splits a character (not UTF-8: no line of it is shown).
        examples: [
          [
            {
              shape: "files",
              entries: [
                {
                  path: ["a"],
                  node: {
                    t: "file",
                    file: { kind: "binary", lines: ["needle Straße", "needle ÉCOLE needle foo"], nulAt: 23 },
                  },
                },
              ],
              ignores: [],
              exclude: null,
              nested: null,
              bulk: 0,
            },
            {
              pat: { pattern: "needle", literal: true, caseSensitive: true },
              contextLines: 0,
              globs: [],
              filesOnly: false,
              start: 0,
            },
          ],
          [
            {
              shape: "files",
              entries: [
                { path: ["src"], node: { t: "file", file: { kind: "text", lines: ["needle"], nulAt: 0 } } },
              ],
              ignores: [],
              exclude: null,
              nested: null,
              bulk: 0,
            },
            {
              pat: { pattern: "needle", literal: true, caseSensitive: true },
              contextLines: 0,
              globs: ["src/**"],
              filesOnly: false,
              start: undefined,
            },
          ],
          // Found by this property: searching src, the glob src/** is src/src/** (globs are relative to the
          // path searched, as grep's schema says); the reference ran rg from the tree and found src/a.
          [
            {
              shape: "files",
              entries: [
                {
                  path: ["src", "a"],
                  node: { t: "file", file: { kind: "text", lines: ["café"], nulAt: 0 } },
                },
              ],
              ignores: [],
              exclude: null,
              nested: null,
              bulk: 0,
            },
            {
              pat: { pattern: "caf.", literal: false, caseSensitive: true },
              contextLines: 0,
              globs: ["src/**"],
              filesOnly: false,
              start: 0,
            },
          ],
        ],
      },
    );
  }, 120_000);

  it("under a match cap, returns a subset of rg's matches and says so exactly when it cut", async () => {
    const rgPath = await findRipgrep();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(treeSpec, fc.integer({ min: 1, max: 6 }), async (spec, cap) => {
        const tree = path.join(area.base, `c${n++}`);
        writeTree(tree, spec);
        try {
          const pat = PATTERNS[0]!;
          const ref = rgReference(rgPath!, tree, { ...pat, start: "", contextLines: 0, globs: [] });
          const root: Root = { path: tree, real: tree, mode: "rw", kind: "directory" };
          for (const engine of ["auto", "rg", "js"] as const) {
            const r = await grep({
              root,
              start: tree,
              ...pat,
              gitignore: true,
              engine,
              maxResults: cap,
              formatLine: (t) => t,
            });
            const got = lineSet(r);
            for (const l of got) expect(ref.has(l), `${engine}: ${l}`).toBe(true);
            expect(got.size, engine).toBe(Math.min(cap, ref.size));
            expect(r.truncated, engine).toBe(ref.size > cap);
          }
        } finally {
          fs.rmSync(tree, { recursive: true, force: true });
        }
      }),
      { numRuns: 20 },
    );
  }, 120_000);
});
