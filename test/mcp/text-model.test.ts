/**
 * Black-box, both surfaces: one line model (a line ends at LF; a lone CR is content; a CRLF line's CR is
 * not shown) for every way of reading, and edits that change only the bytes of the lines they target.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-text-");
afterAll(() => area.cleanup());

const LONE_CR = "a\rb\nc\n";
const MIXED = "x\r\ny\nz\r\nw\n";

describe("filesystem surface", () => {
  const root = area.tree("fs", {});
  const p = (rel: string) => path.join(root, rel);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it("head, tail, startLine and the line count agree on a file with a lone CR", async () => {
    fs.writeFileSync(p("cr.txt"), LONE_CR);
    const head = await conn.call("read_text_file", { path: p("cr.txt"), head: 2, lineNumbers: true });
    expect(head.text).toBe("1→a\rb\n2→c");
    const tail = await conn.call("read_text_file", { path: p("cr.txt"), tail: 1, lineNumbers: true });
    expect(tail.text).toBe("2→c");
    const range = await conn.call("read_text_file", { path: p("cr.txt"), startLine: 2, endLine: 2 });
    expect(range.text).toBe("c");
    expect(range.structured).toMatchObject({ startLine: 2, endLine: 2, totalLines: 2 });
    const first = await conn.call("read_text_file", { path: p("cr.txt"), startLine: 1, endLine: 1 });
    expect(first.text).toBe("a\rb");
    const grep = await conn.call("grep", { path: p("cr.txt"), pattern: "^c$" });
    expect(grep.structured?.matches).toMatchObject([{ line: 2, text: "c" }]);
  });

  it("edit_file keeps every untouched line's own ending on a mixed CRLF/LF file", async () => {
    fs.writeFileSync(p("m.txt"), MIXED);
    const r = await conn.call("edit_file", { path: p("m.txt"), edits: [{ oldText: "y", newText: "Y" }] });
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("m.txt"), "utf8")).toBe("x\r\nY\nz\r\nw\n");
  });

  it("edit_file: a replaced line takes the ending of the line it replaces; new lines the dominant one", async () => {
    // Dominant CRLF (3 of 4), so the added line is told apart from the replaced LF one.
    fs.writeFileSync(p("m2.txt"), "x\r\ny\nz\r\nw\r\n");
    const r = await conn.call("edit_file", {
      path: p("m2.txt"),
      edits: [{ oldText: "y\nz\n", newText: "Y\nZ\nNEW\n" }],
    });
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("m2.txt"), "utf8")).toBe("x\r\nY\nZ\r\nNEW\r\nw\r\n");
  });

  it("edit_files keeps every untouched line's own ending", async () => {
    fs.writeFileSync(p("e.txt"), MIXED);
    const r = await conn.call("edit_files", {
      files: [{ path: p("e.txt"), edits: [{ oldText: "y", newText: "Y" }] }],
    });
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("e.txt"), "utf8")).toBe("x\r\nY\nz\r\nw\n");
  });
});

describe("workspace surface", () => {
  const project = area.tree("ws", {});
  const p = (rel: string) => path.join(project, rel);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it("read_file's start_line counts lines as the filesystem surface does", async () => {
    fs.writeFileSync(p("cr.txt"), LONE_CR);
    const r = await conn.call("read_file", { file_path: "cr.txt", start_line: 2, end_line: 2 });
    expect(r.text).toBe("2→c\n");
  });

  it("edit_file keeps every untouched line's own ending on a mixed CRLF/LF file", async () => {
    fs.writeFileSync(p("m.txt"), MIXED);
    const r = await conn.call("edit_file", { file_path: "m.txt", old_string: "y", new_string: "Y" });
    expect(r.isError).toBe(false);
    expect(fs.readFileSync(p("m.txt"), "utf8")).toBe("x\r\nY\nz\r\nw\n");
  });
});
