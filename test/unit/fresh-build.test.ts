/**
 * The black-box tier's build check (test/helpers/fresh-build.ts) on a temp tree: no build, a build older
 * than a source file (even a new one in a new folder), and a fresh build are told apart.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { staleness } from "../helpers/fresh-build.js";

const area = tempArea("mcpfs-fresh-");
afterAll(() => area.cleanup());

const at = (root: string, rel: string, secondsAgo: number) => {
  const p = path.join(root, rel);
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(p, t, t);
};

describe("build freshness", () => {
  it("no build, stale build, fresh build", () => {
    const root = area.tree("repo", {
      "src/cli/main.ts": "x",
      "scripts/bundle.mjs": "x",
      "package.json": "{}",
      "tsconfig.json": "{}",
    });
    for (const rel of [
      "src/cli/main.ts",
      "src/cli",
      "src",
      "scripts/bundle.mjs",
      "scripts",
      "package.json",
      "tsconfig.json",
    ])
      at(root, rel, 100);
    expect(staleness(root)).toMatch(/no build/);
    fs.mkdirSync(path.join(root, "dist/bundle"), { recursive: true });
    fs.writeFileSync(path.join(root, "dist/bundle/mcpfs.js"), "x");
    fs.writeFileSync(path.join(root, "dist/bundle/mcpfs-main.cjs"), "x");
    at(root, "dist/bundle/mcpfs.js", 50);
    at(root, "dist/bundle/mcpfs-main.cjs", 50);
    expect(staleness(root)).toBeUndefined();
    // A source changed after the build.
    at(root, "src/cli/main.ts", 10);
    expect(staleness(root)).toMatch(/^src is newer/);
    at(root, "src/cli/main.ts", 100);
    // A new file in a new folder (its folders' times move too).
    fs.mkdirSync(path.join(root, "src/core"));
    fs.writeFileSync(path.join(root, "src/core/new.ts"), "x");
    expect(staleness(root)).toMatch(/^src is newer/);
  });
});
