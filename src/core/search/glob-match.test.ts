/**
 * The linear-time glob compiler against picomatch itself (the semantics it keeps) on paths built to match,
 * the hostile cases that froze the server, and the length and construct limits. The random globs and paths
 * against picomatch run in test/slow/glob-match.property.test.ts.
 */
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { wordedThrow } from "../../../test/helpers/worded.js";
import { compileGlob, compileGlobAny } from "./glob-match.js";

describe("compileGlob keeps picomatch's semantics", () => {
  it("agrees on paths built to match (so the positive side is exercised, not only misses)", () => {
    const cases: [string, string][] = [
      ["**/*.ts", "src/a/b.ts"],
      ["**/*.ts", "b.ts"],
      ["*.ts", "src/b.ts"],
      ["src/**", "src"],
      ["src/**", "src/x/y"],
      ["a/**/b", "a/b"],
      ["a/**/b", "a/x/y/b"],
      ["**/node_modules", "x/node_modules"],
      ["{src,lib}/**/*.{js,ts}", "lib/x/y.js"],
      ["@(a|b)/c", "b/c"],
      ["+(ab)", "ababab"],
      ["file{1..3}.txt", "file2.txt"],
      ["!*.log", "a.txt"],
      ["!*.log", "a.log"],
      ["./a/*", "a/b"],
      [".*", ".env"],
      ["[[:digit:]]x", "7x"],
    ];
    for (const [g, p] of cases)
      expect(compileGlob(g)(p), `${g} vs ${p}`).toBe(picomatch(g, { dot: true })(p));
  });
});

describe("compileGlobAny", () => {
  it("stays linear with many branches on a long name", () => {
    const test = compileGlobAny(["*a*b", "*.pem", "id_rsa*", "**/*a*a*a*a*a*a*b", ".env*"]);
    expect(test("a".repeat(5000))).toBe(false);
  });
});

/**
 * Linear time, judged by effect rather than by a clock: the names are long enough that a backtracking matcher
 * needs far more steps than the test's timeout allows (the first glob against 4000 characters: about
 * C(4000, 8) ~ 10^24 tries; the extglobs: exponential in 3000), so a regression fails by timeout, never by a
 * loaded machine; the linear matcher answers in milliseconds (timed in `npm run bench`, not here).
 */
describe("compileGlob runs in linear time", () => {
  it.each([
    ["*a*a*a*a*a*a*a*a*b", "a".repeat(60)],
    ["*a*a*a*a*a*a*a*a*b", "a".repeat(4000)],
    ["**/*a*a*a*a*a*a*b", `${"a/".repeat(1000)}${"a".repeat(2000)}`],
    ["**/a/**/a/**/a/**/a/**/b", "a/".repeat(2000).slice(0, -1)],
    ["**/*a", `${"a/".repeat(2000)}b`],
    ["*(a|aa)b", "a".repeat(3000)],
    ["{a,aa}*{a,aa}*{a,aa}*b", "a".repeat(3000)],
  ])("%s against a hostile name answers without backtracking", (g, p) => {
    expect(compileGlob(g)(p)).toBe(false);
  });

  it("refuses a glob over the length cap, and a negated extglob, with a clear error", () => {
    expect(wordedThrow(() => compileGlob("a".repeat(1025)))).toMatch(
      /Glob pattern too long \(1025 characters; the limit is 1024\)/,
    );
    expect(() => compileGlob("a".repeat(1024))).not.toThrow();
    expect(wordedThrow(() => compileGlob("!(a)"))).toMatch(/negated extglob/);
  });
});
