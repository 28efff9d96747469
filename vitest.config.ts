import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default"],
    // Servers started by tests journal here, never in the user's own state directory.
    env: { MCPFS_STATE_DIR: path.join(os.tmpdir(), "mcpfs-test-state") },
  },
});
