import fs from "node:fs";

/** The version in package.json (dist/cli/version.js sits two levels below the package root). */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    return String(pkg.version);
  } catch {
    return "0.0.0";
  }
}
