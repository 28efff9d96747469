/**
 * The package as users install it (packed, installed with --omit=dev outside the repository: the harness's
 * MCPFS_BIN) on a directory that holds a .gitignore: every tool that applies the ignore rules answers, on
 * both surfaces. The ignore matcher once came from a devDependency the bundle did not contain, and every
 * such call answered "Operation failed: <path> (MODULE_NOT_FOUND)".
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, MCPFS_BIN, ROOT, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-installed-");
const project = area.tree("project", {
  ".gitignore": "*.log\nbuild/\n",
  "src/main.ts": "export const needle = 1;\n",
  "src/.gitignore": "gen.ts\n",
  "src/gen.ts": "needle generated\n",
  "app.log": "needle log\n",
  "build/out.js": "needle built\n",
});
afterAll(() => area.cleanup());

it("the server under test is the installed package, outside the repository", () => {
  expect(path.relative(ROOT, MCPFS_BIN).startsWith("..")).toBe(true);
  expect(MCPFS_BIN).toMatch(/node_modules[\\/]mcpfs[\\/]dist[\\/]bundle[\\/]mcpfs\.js$/);
  // The one runtime dependency sits beside it; none of the devDependencies do.
  const modules = path.resolve(MCPFS_BIN, "../../../..");
  expect(fs.existsSync(path.join(modules, "@vscode", "ripgrep"))).toBe(true);
  expect(fs.existsSync(path.join(modules, "ignore"))).toBe(false);
});

describe("filesystem surface on a directory with .gitignore files", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([project]);
  });
  afterAll(() => conn.close());

  it("directory_tree lists the tree", async () => {
    const r = await conn.call("directory_tree", { path: project });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("main.ts");
  });

  it("grep finds the text", async () => {
    const r = await conn.call("grep", { path: project, pattern: "needle" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("main.ts");
    expect(r.text).not.toContain("gen.ts");
  });

  it("search_files finds the name", async () => {
    const r = await conn.call("search_files", { path: project, pattern: "**/main.ts" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("main.ts");
  });
});

describe("workspace surface on a project with .gitignore files", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(() => conn.close());

  it("read_file reads", async () => {
    const r = await conn.call("read_file", { file_path: "src/main.ts" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("needle");
  });

  it("list_directory lists", async () => {
    const r = await conn.call("list_directory", {});
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("main.ts");
    expect(r.text).not.toContain("app.log");
  });
});
