/**
 * globalSetup of the Windows pass (vitest.windows.config.ts): the package as a Windows user installs it —
 * packed, installed with --omit=dev for win32 x64 (so ripgrep's Windows binary comes along) outside the
 * repository — provided to the tests as `mcpfsBin`.
 */
import type { TestProject } from "vitest/node";
import { provideInstalled } from "../helpers/installed-package.js";

export default function setup(project: TestProject): void {
  provideInstalled(project, { os: "win32", cpu: "x64" });
}
