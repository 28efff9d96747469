/**
 * directory_tree's note on what a cut tree leaves out: absent for a whole tree; for a tree cut to fit the
 * reply budget, how much it shows, which top levels are whole, and how to see the rest.
 */
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-tree-note-");
afterAll(() => area.cleanup());
/** 10 folders of 10 folders of one file each: 210 entries on three levels. */
const dir = area.tree(
  "t",
  Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`d${Math.floor(i / 10)}/e${i % 10}/f.txt`, "x\n"]),
  ),
);

async function tree(budget: number) {
  const conn = await startServer([dir, "--max-output-bytes", String(budget)]);
  try {
    return await conn.call("directory_tree", { path: dir });
  } finally {
    await conn.close();
  }
}

describe("directory_tree's note on what a cut tree leaves out", () => {
  it("is absent for a whole tree", async () => {
    const r = await tree(1 << 20);
    expect(r.structured).toMatchObject({ entries: 210, totalEntries: 210, truncated: false });
    expect(r.structured?.note).toBeUndefined();
  });

  it("says what a tree cut to the budget shows, which levels are whole, and how to narrow", async () => {
    const r = await tree(6000);
    const note = r.structured?.note as string;
    expect(note).toMatch(
      /^\[mcpfs: output truncated: showing \d+ of 210 entries \(levels 1–\d whole\); directories marked "truncated": true hold more\. Pass a subdirectory as path, a smaller maxDepth, or excludePatterns to see the rest\.\]$/,
    );
    expect(note).toContain(`showing ${r.structured?.entries} of 210 entries`);
  });
});
