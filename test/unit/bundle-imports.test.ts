/**
 * The build's bundle check (scripts/bundle-imports.mjs, run by scripts/bundle.mjs): a module the bundle
 * loads at run time that the installed package (dependencies only) lacks is found, in the shapes esbuild's
 * minified output takes; builtins, dependencies, files beside the bundle and text inside strings are not.
 */
import { describe, expect, it } from "vitest";
import { unbundledImports } from "../../scripts/bundle-imports.mjs";

const deps = { "@vscode/ripgrep": "1.18.0" };

describe("bundle check", () => {
  it("flags the ignore package loaded through createRequire, in every spelling", () => {
    for (const text of [
      // What the bundle did: the source's createRequire(import.meta.url)("ignore"), minified.
      'GX=(0,TL.createRequire)(__mcpfsUrl);function HX(t){return GX("ignore")({allowRelativePaths:!0})}',
      'const r = createRequire(import.meta.url); r("ignore");',
      'var{createRequire:kY}=require("module");var q=kY(__filename);q("ignore")',
      'module.createRequire(import.meta.url)("ignore")',
    ])
      expect(unbundledImports(text, deps), text).toEqual(["ignore"]);
  });

  it("flags a plain require or dynamic import of a devDependency, with its subpath", () => {
    expect(unbundledImports('x=require("zod/v4");y=import("pino")', deps)).toEqual(["zod/v4", "pino"]);
  });

  it("accepts builtins, dependencies, shipped files, and require text inside strings", () => {
    const text =
      'require("node:fs");require("fs/promises");import("@vscode/ripgrep");' +
      'module.createRequire(import.meta.url)("./mcpfs-main.cjs");' +
      'e.code=\'require("ajv/dist/runtime/equal").default\';s._`require("ajv-formats/dist/formats")`';
    expect(unbundledImports(text, deps, ["mcpfs-main.cjs"])).toEqual([]);
    expect(unbundledImports('require("./other.cjs")', deps, ["mcpfs-main.cjs"])).toEqual(["./other.cjs"]);
  });
});
