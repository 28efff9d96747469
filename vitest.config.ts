import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Four tiers (CONTRIBUTING.md, "Test"):
 * - unit: the sources' modules called directly, each test beside its module (`src/.../x.test.ts` tests
 *   `src/.../x.ts`), and in test/unit the checks of the whole source tree; no build, server, network or npm.
 * - test/mcp: the server factory of src/ in this process, reached by the MCP SDK client over an in-memory
 *   transport (test/helpers/in-process.ts); no build, no spawn; every reply checked against its outputSchema.
 * - test/e2e: the INSTALLED package (packed, installed with --omit=dev outside the repository) as users run
 *   it: CLI, stdio, HTTP, signals, what needs a process.
 * - test/slow: property, differential, crash, npm and conformance runs (the installed package too).
 */
const shared = {
  environment: "node",
  // Generous: a loaded machine slows every test; none asserts on wall time.
  testTimeout: 120_000,
  hookTimeout: 120_000,
  pool: "forks",
  // Servers started by tests journal here, never in the user's own state directory.
  env: { MCPFS_STATE_DIR: path.join(os.tmpdir(), "mcpfs-test-state") },
} as const;

/**
 * unit and mcp run in worker processes, each importing the sources once for all its files (isolate: false):
 * module import was most of these tiers' time, paid again for every file. Safe because no file of theirs
 * changes process-wide state (env, cwd, globals, module mocks; checked in CONTRIBUTING.md, "Test"), and the
 * only fake timers (github-client) are restored after each test. Processes, not threads: the tiers start about
 * 1,300 git processes, each forked from the worker that asks, and a process holding one worker's heap forks
 * faster than one holding them all (system time 19.7 s with threads, 10.6 s with processes, here). At least two
 * workers even on two cores: many tests wait on git, the fake GitHub or the client's write throttle, and the
 * other worker runs meanwhile. Their own group (groupOrder 0), so the whole suite runs them first, then e2e and
 * slow.
 */
const inProcess = {
  pool: "forks",
  isolate: false,
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  sequence: { groupOrder: 0 },
} as const;
/** e2e and slow keep a process per file (the default pool): they import little and spawn the installed package. */
const outOfProcess = { sequence: { groupOrder: 1 } } as const;

/** Once before any file of the tier runs: the build is checked (made when stale), packed and installed. */
const installed = ["test/helpers/installed-package.ts"];

/**
 * The mcp tier again, black-box: the same files with their harness swapped for the installed package's
 * (both export `startServer`/`serverPool` returning one `Connection`), so every security and behaviour test
 * written for the fast tier also judges what users install.
 */
const inProcessHarness = /^\.\.\/helpers\/in-process\.js$/;
const installedHarness = fileURLToPath(new URL("test/helpers/server.ts", import.meta.url));

export default defineConfig({
  test: {
    reporters: ["default"],
    projects: [
      {
        test: {
          ...shared,
          ...inProcess,
          name: "unit",
          include: ["src/**/*.test.ts", "test/unit/**/*.test.ts"],
        },
      },
      { test: { ...shared, ...inProcess, name: "mcp", include: ["test/mcp/**/*.test.ts"] } },
      {
        resolve: { alias: [{ find: inProcessHarness, replacement: installedHarness }] },
        test: {
          ...shared,
          ...outOfProcess,
          name: "mcp-installed",
          include: ["test/mcp/**/*.test.ts"],
          globalSetup: installed,
        },
      },
      {
        test: {
          ...shared,
          ...outOfProcess,
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: installed,
        },
      },
      {
        test: {
          ...shared,
          ...outOfProcess,
          name: "slow",
          include: ["test/slow/**/*.test.ts"],
          globalSetup: installed,
        },
      },
    ],
  },
});
