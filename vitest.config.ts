import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Four tiers, one folder each (CONTRIBUTING.md, "Test"):
 * - test/unit: the sources' modules called directly; no build, no server, no network, no npm.
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
      { test: { ...shared, name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { test: { ...shared, name: "mcp", include: ["test/mcp/**/*.test.ts"] } },
      {
        resolve: { alias: [{ find: inProcessHarness, replacement: installedHarness }] },
        test: {
          ...shared,
          name: "mcp-installed",
          include: ["test/mcp/**/*.test.ts"],
          globalSetup: installed,
        },
      },
      { test: { ...shared, name: "e2e", include: ["test/e2e/**/*.test.ts"], globalSetup: installed } },
      { test: { ...shared, name: "slow", include: ["test/slow/**/*.test.ts"], globalSetup: installed } },
    ],
  },
});
