import { defineConfig } from "vitest/config";

/** The Windows pass (test/windows): run by `npm run test:windows` (scripts/test-windows.mjs) under Wine. */
export default defineConfig({
  test: {
    include: ["test/windows/**/*.wine.ts"],
    // The tarball installed for win32 x64 outside the repository, as a Windows user gets it.
    globalSetup: ["test/windows/installed-win32.ts"],
    environment: "node",
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: "forks",
    // One Wine server at a time: the 2-core CI machine and Wine's own start-up cost.
    fileParallelism: false,
    reporters: ["default"],
  },
});
