import { describe, expect, it } from "vitest";
import { MAX_WALK_ENTRIES } from "../../src/core/listing/budgeted-tree.js";
import { capNote } from "../../src/surfaces/filesystem/directory-tree.js";

describe("directory_tree's note on what a cut tree leaves out", () => {
  const whole = { stopped: false, timedOut: false, visited: 10 };
  it("is absent for a whole tree", () => {
    expect(capNote(10, 10, whole, undefined)).toBeUndefined();
  });
  it("names the entry cap, the time limit and the budget, each with how to narrow", () => {
    const capped = capNote(4000, MAX_WALK_ENTRIES, { ...whole, stopped: true }, 3);
    expect(capped).toMatch(/the walk stopped after 5,000,000 entries; the tree and its totals are partial/);
    expect(capped).toMatch(/showing 4000 of 5000000 entries \(levels 1–2 whole\)/);
    expect(capped).toMatch(/Pass a subdirectory as path, a smaller maxDepth, or excludePatterns/);
    expect(capNote(10, 10, { ...whole, timedOut: true, visited: 99 }, undefined)).toMatch(
      /the walk stopped after 60 s \(99 entries visited\)/,
    );
  });
});
