import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The black-box security and file-operation suites again, with the server forced onto the code paths of
 * other volumes: descriptor checks without /proc/self/fd (macOS, Windows) and no hard links (exFAT, FAT,
 * some network shares). `npm run test:portable`; CI runs it after `npm test`.
 */
export default defineConfig({
  test: {
    // Not the symlink-swap race suites (test/e2e/*race*): without descriptor paths the checks after
    // open narrow those races but cannot close them (measured: 1 leak in ~2900 racing reads, a few writes
    // redirected in 1000 swaps, against 0 with /proc/self/fd); the README's platform table says so.
    include: [
      "test/e2e/hostile-paths.test.ts",
      "test/e2e/filesystem-surface.test.ts",
      "test/mcp/workspace-files.test.ts",
      "test/mcp/workspace-edit.test.ts",
      "test/mcp/lost-update.test.ts",
      "test/e2e/fs-extra-tools.test.ts",
      "src/core/fs/portable-volume.test.ts",
    ],
    // The installed package, as in the black-box tier of vitest.config.ts.
    globalSetup: ["test/helpers/installed-package.ts"],
    env: {
      MCPFS_FORCE_PORTABLE_FD: "1",
      MCPFS_FORCE_NO_HARDLINKS: "1",
      MCPFS_STATE_DIR: path.join(os.tmpdir(), "mcpfs-test-state"),
    },
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default"],
  },
});
