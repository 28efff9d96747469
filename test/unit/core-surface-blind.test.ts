/**
 * "The core never sees a surface's name": no string in src/core/ spells one (so no branch can compare with
 * it), and the dependency rules keep src/core/ from importing src/config/ (where `Surface` lives) and
 * src/surfaces/ (`.dependency-cruiser.cjs`). What differs between surfaces reaches the core as data
 * (`PathRules`, error kinds worded by each surface's table).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesystemPolicy } from "../../src/surfaces/filesystem/policy.js";
import { workspacePolicy } from "../../src/surfaces/workspace/policy.js";

const SRC = path.resolve(import.meta.dirname, "../../src");

/** The sources below `dir`, less the unit tests beside them (not the core's code: they may name a surface). */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? sources(path.join(dir, d.name))
        : d.name.endsWith(".ts") && !d.name.endsWith(".test.ts")
          ? [path.join(dir, d.name)]
          : [],
    );
}

/** The lines of a file that spell one of `names` as a whole string literal, comments left out. */
function spelled(file: string, names: readonly string[]): string[] {
  const quoted = new RegExp(`(["'\`])(${names.join("|")})\\1`);
  const code = fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "))
    .replace(/(^|\s)\/\/.*$/gm, "$1");
  return code
    .split("\n")
    .flatMap((line, i) => (quoted.test(line) ? [`${path.relative(SRC, file)}:${i + 1}`] : []));
}

describe("the core never sees a surface's name", () => {
  const names = [filesystemPolicy.name, workspacePolicy.name];

  it("no string in src/core/ is a surface's name", () => {
    expect(sources(path.join(SRC, "core")).flatMap((f) => spelled(f, names))).toEqual([]);
  });

  it("the check finds a surface name where one is spelled", () => {
    expect(spelled(path.join(SRC, "surfaces/index.ts"), names)).not.toEqual([]);
  });
});
