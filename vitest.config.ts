import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Two tiers. A black-box test runs the INSTALLED package (packed, installed with --omit=dev outside the
 * repository): it starts it through the harness (test/helpers/server.ts, http.ts). Every other
 * test file is a unit or property test of the sources and needs no build: `npm run test:unit` runs those
 * alone. Which tier a file is in follows from what it (or a local module it imports) uses, so a new test
 * lands in the right one without a list to keep.
 */
const BLACK_BOX = /\b(startServer|serverPool|startHttpServer|connectHttp|runCli|MCPFS_BIN|OFFICIAL_BIN)\b/;
/** The harness itself names all of these; importing it for a path (ROOT) is not a use of the build. */
const HARNESS = new Set(["test/helpers/server.ts", "test/helpers/http.ts"]);

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
}

const seen = new Map<string, boolean>();
/** Whether a file, or a local module it imports (the harness aside), uses the build. */
function usesBuild(file: string): boolean {
  const known = seen.get(file);
  if (known !== undefined) return known;
  seen.set(file, false);
  const text = fs.readFileSync(file, "utf8");
  let uses = BLACK_BOX.test(text);
  for (const m of text.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
    if (uses) break;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!));
    const source = [target, target.replace(/\.js$/, ".ts")].find(
      (f) => fs.existsSync(f) && !f.endsWith(".js"),
    );
    if (source && !HARNESS.has(source) && !source.startsWith("src/")) uses = usesBuild(source);
  }
  seen.set(file, uses);
  return uses;
}

const all = testFiles("test");
const blackBox = all.filter(usesBuild);
const unit = all.filter((f) => !usesBuild(f));

const shared = {
  environment: "node",
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: "forks",
  // Servers started by tests journal here, never in the user's own state directory.
  env: { MCPFS_STATE_DIR: path.join(os.tmpdir(), "mcpfs-test-state") },
} as const;

export default defineConfig({
  test: {
    reporters: ["default"],
    projects: [
      { test: { ...shared, name: "unit", include: unit } },
      // Once before any black-box file runs: the build is checked (made when stale), packed and installed
      // outside the repository; the tests start that installed package.
      {
        test: {
          ...shared,
          name: "black-box",
          include: blackBox,
          globalSetup: ["test/helpers/installed-package.ts"],
        },
      },
    ],
  },
});
