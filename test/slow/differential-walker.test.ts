/**
 * Differential property: each way the walker can read a tree (synchronous slices or reads in flight, deepest
 * first or level by level, whole or to a depth) keeps exactly the entries of a plain readdir + ignore walk.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { walk } from "../../src/core/walk.js";
import type { Root } from "../../src/core/workspace.js";
import { tempArea } from "../helpers/fixtures.js";
import { referenceWalk, treeSpec, writeTree } from "../helpers/random-tree.js";

const area = tempArea("mcpfs-diff-walker-");
afterAll(() => area.cleanup());

describe("walker modes against a plain readdir + ignore walk", () => {
  it("keeps the reference's entries, with their types, in every mode", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        treeSpec,
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        async (spec, parallelReads, breadthFirst, maxDepth) => {
          const tree = path.join(area.base, `t${n++}`);
          writeTree(tree, spec);
          try {
            const root: Root = { path: tree, real: tree, mode: "rw", kind: "directory" };
            const ref = referenceWalk(tree, { gitignore: true, maxDepth })
              .map((e) => `${e.rel} ${e.type}`)
              .sort();
            const r = await walk({
              root,
              start: tree,
              gitignore: true,
              parallelReads,
              breadthFirst,
              maxDepth,
            });
            expect(r.entries.map((e) => `${e.rel} ${e.type}`).sort()).toEqual(ref);
            const plain = referenceWalk(tree, { gitignore: false, maxDepth }).map(
              (e) => `${e.rel} ${e.type}`,
            );
            const all = await walk({ root, start: tree, gitignore: false, parallelReads, maxDepth });
            expect(all.entries.map((e) => `${e.rel} ${e.type}`).sort()).toEqual(plain.sort());
          } finally {
            fs.rmSync(tree, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
