/**
 * A failed edit_file shows where the text comes closest (both surfaces): the official first line stays, then
 * the line numbers and a short, bounded diff of the nearest region; the file is unchanged.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-near-");
const SOURCE = [
  "import { z } from 'zod';",
  "",
  "export function parse(input: string) {",
  "  const schema = z.object({ name: z.string() });",
  "  return schema.parse(JSON.parse(input));",
  "}",
  "",
  ...Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`),
  "",
].join("\n");
const project = area.tree("project", { ".gitignore": "node_modules/\n", "src/parse.ts": SOURCE });
const file = path.join(project, "src/parse.ts");
afterAll(() => area.cleanup());

// The caller remembered line 4 wrong (`name` vs `title`) and line 5 right.
const OLD = "  const schema = z.object({ title: z.string() });\n  return schema.parse(JSON.parse(input));";
const DIFF = [
  "Closest match: lines 4-5 (1 of 2 lines equal; - expected, + file):",
  "-   const schema = z.object({ title: z.string() });",
  "+   const schema = z.object({ name: z.string() });",
  "    return schema.parse(JSON.parse(input));",
].join("\n");

describe("a failed edit_file shows the closest region", () => {
  let fsConn: Connection;
  let wsConn: Connection;
  beforeAll(async () => {
    fsConn = await startServer([project]);
    wsConn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(async () => {
    await fsConn.close();
    await wsConn.close();
  });

  it("filesystem surface: the official text, then the nearest lines as a diff", async () => {
    const r = await fsConn.call("edit_file", { path: file, edits: [{ oldText: OLD, newText: "QQQ_NEW" }] });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Could not find exact match for edit:\n${OLD}\n\n${DIFF}`);
    expect(fs.readFileSync(file, "utf8")).toBe(SOURCE);
  });

  it("workspace surface: mcp-workspace's text, then the nearest lines as a diff", async () => {
    const r = await wsConn.call("edit_file", {
      file_path: "src/parse.ts",
      old_string: OLD,
      new_string: "QQQ_NEW",
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("Text not found in src/parse.ts: ");
    expect(r.text.endsWith(`\n\n${DIFF}`)).toBe(true);
    expect(fs.readFileSync(file, "utf8")).toBe(SOURCE);
  });

  it("the diff is bounded, and text like nothing in the file gets no region", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `export const value${i} = ${i + 100};`).join("\n");
    const r = await fsConn.call("edit_file", { path: file, edits: [{ oldText: many, newText: "QQQ_NEW" }] });
    const region = r.text.slice(r.text.indexOf("Closest match:"));
    expect(region).toMatch(/^Closest match: lines 8-37 \(0 of 30 lines equal/);
    expect(region.split("\n").length).toBeLessThanOrEqual(14);
    expect(region).toContain("more diff lines)");
    const none = await fsConn.call("edit_file", {
      path: file,
      edits: [{ oldText: "zzz qqq", newText: "QQQ_NEW" }],
    });
    expect(none.text).toBe("Could not find exact match for edit:\nzzz qqq");
  });
});
