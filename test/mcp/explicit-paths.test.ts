/**
 * A path the caller names is searched, as ripgrep searches a path it is given: the ignore rules of the
 * folders above it never hide the path itself, while every rule (its ancestors' included) still judges the
 * entries inside it. Differential against the shipped rg on a real-looking project; every reply that
 * skipped ignored entries says how many and how to include them; the workspace surface, which refuses
 * ignored paths by design, says so instead of answering an empty listing.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-explicit-");
const project = area.tree("project", {
  ".gitignore": "node_modules/\n*.log\ndist/\n",
  "package.json": '{ "name": "app" }\n',
  "src/index.js": "export function main() {}\n",
  "src/.gitignore": "generated/\n",
  "src/generated/out.js": "function gen() {}\n",
  "src/app.log": "function logged\n",
  "node_modules/zod/package.json": '{ "name": "zod" }\n',
  "node_modules/zod/.gitignore": "*.tmp.js\n",
  "node_modules/zod/index.js": "export function z() {}\n",
  "node_modules/zod/lib/types.js": "export function string() {}\n",
  "node_modules/zod/lib/scratch.tmp.js": "function scratch() {}\n",
  "node_modules/zod/dist/bundle.js": "function bundled() {}\n",
  "node_modules/zod/debug.log": "function debug\n",
  "node_modules/zod/node_modules/inner/index.js": "function inner() {}\n",
});
execFileSync("git", ["init", "-q"], { cwd: project });
fs.writeFileSync(path.join(project, ".git", "function.txt"), "function in git\n");
afterAll(() => area.cleanup());

/** What the shipped ripgrep lists for `rel` (run from the project, as a user would), sorted, "/" separated. */
function rgFiles(rel: string, ...mode: string[]): string[] {
  const how = mode.length > 0 ? mode : ["--files"];
  const out = execFileSync(rgPath, [...how, "--hidden", "--no-config", "-g", "!.git", rel], {
    cwd: project,
    encoding: "utf8",
  });
  const strip = `${rel}/`;
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split(path.sep).join("/"))
    .map((l) => (l.startsWith(strip) ? l.slice(strip.length) : l))
    .sort();
}

/** The file paths of a directory_tree reply, relative to its root. */
function treeFiles(json: string): string[] {
  type Node = { name: string; type: string; children?: Node[] };
  const out: string[] = [];
  const visit = (nodes: Node[], prefix: string) => {
    for (const n of nodes) {
      if (n.type === "directory") visit(n.children ?? [], `${prefix}${n.name}/`);
      else out.push(`${prefix}${n.name}`);
    }
  };
  visit(JSON.parse(json) as Node[], "");
  return out.sort();
}

const EXPLICIT = ["node_modules/zod", "node_modules/zod/lib", "node_modules/zod/dist", "src/generated"];

describe.each(["rg", "js"] as const)("filesystem surface, %s engine", (engine) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([project], { env: { MCPFS_GREP_ENGINE: engine } });
  });
  afterAll(() => conn.close());

  it.each(EXPLICIT)(
    "searches %s as ripgrep does: the path itself is never hidden, rules judge what is inside",
    async (rel) => {
      const expected = rgFiles(rel);
      expect(expected.length).toBeGreaterThan(0);
      const abs = path.join(project, rel);
      const g = await conn.call("grep", { path: abs, pattern: ".", filesOnly: true });
      expect(g.isError).toBe(false);
      expect(
        (g.structured!.files as string[]).map((f) => path.relative(abs, f).split(path.sep).join("/")).sort(),
      ).toEqual(expected);
      const s = await conn.call("search_files", { path: abs, pattern: "**/*" });
      const names = (s.structured!.matches as string[]).filter((m) =>
        fs.statSync(path.join(abs, m)).isFile(),
      );
      expect(names.sort()).toEqual(expected);
      const t = await conn.call("directory_tree", { path: abs });
      expect(treeFiles(t.raw.content[0].text)).toEqual(expected);
    },
  );

  it("grep says how many ignored entries it skipped and how to include them; includeIgnored searches them, never .git", async () => {
    const r = await conn.call("grep", { path: project, pattern: "function", filesOnly: true });
    expect(r.structured!.files).toEqual([path.join(project, "src/index.js")]);
    // Skipped at the top of each branch: node_modules/, src/app.log, src/generated/.
    expect(r.text).toContain("3 ignored entries skipped");
    expect(r.text).toContain("includeIgnored=true");
    const all = await conn.call("grep", {
      path: project,
      pattern: "function",
      filesOnly: true,
      includeIgnored: true,
    });
    const files = (all.structured!.files as string[]).map((f) =>
      path.relative(project, f).split(path.sep).join("/"),
    );
    expect(files.sort()).toEqual(rgFiles(".", "-l", "--no-ignore", "function"));
    expect(files).toContain("node_modules/zod/dist/bundle.js");
    expect(all.text).not.toContain("function in git");
    expect(all.text).not.toContain("ignored entries skipped");
  });

  it("search_files and directory_tree say how many ignored entries they skipped; includeIgnored lists them", async () => {
    const s = await conn.call("search_files", { path: project, pattern: "**/*.js" });
    expect(s.structured!.matches).toEqual(["src/index.js"]);
    expect(s.text).toContain("3 ignored entries skipped");
    expect(s.text).toContain("includeIgnored=true");
    const sAll = await conn.call("search_files", { path: project, pattern: "**/*.js", includeIgnored: true });
    expect(sAll.structured!.matches).toContain("node_modules/zod/node_modules/inner/index.js");
    expect(sAll.text).not.toContain("ignored entries skipped");

    const t = await conn.call("directory_tree", { path: project });
    expect(treeFiles(t.raw.content[0].text)).toEqual([
      ".gitignore",
      "package.json",
      "src/.gitignore",
      "src/index.js",
    ]);
    expect(t.structured!.note).toContain("3 ignored entries skipped");
    expect(t.structured!.note).toContain("includeIgnored=true");
    const tAll = await conn.call("directory_tree", { path: project, includeIgnored: true });
    const all = treeFiles(tAll.raw.content[0].text);
    expect(all).toContain("node_modules/zod/dist/bundle.js");
    expect(all.some((f) => f.startsWith(".git/"))).toBe(false);
  });
});

describe("workspace surface", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(() => conn.close());

  it("list_directory of an ignored folder says it is ignored and why, never an empty reply", async () => {
    for (const dir of ["node_modules", "node_modules/zod", "src/generated"]) {
      const r = await conn.call("list_directory", { path: dir });
      expect(r.text.length, dir).toBeGreaterThan(0);
      expect(r.text, dir).toContain(`'${dir}'`);
      expect(r.text, dir).toContain(".gitignore");
      expect(r.text, dir).not.toContain("function");
    }
    const git = await conn.call("list_directory", { path: ".git" });
    expect(git.text).toContain("'.git'");
    expect(git.text).not.toContain("function.txt");
  });
});
