/**
 * Black-box, both surfaces: every read shape (whole, head, tail, range, workspace read_file) shows the same
 * lines with the same numbering, and follows one decode policy for a file that is not UTF-8.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-reader-");
afterAll(() => area.cleanup());

const CRLF = "one\r\ntwo\r\nthree\r\n";
const LATIN1 = Buffer.from("caf\xe9\n", "latin1");

describe("filesystem surface", () => {
  const root = area.tree("fs", { "crlf.txt": CRLF, "latin1.txt": LATIN1 });
  const p = (rel: string) => path.join(root, rel);
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it("numbers a CRLF file the same way whole, by head, by tail and by range", async () => {
    const read = (extra: object) =>
      conn.call("read_text_file", { path: p("crlf.txt"), lineNumbers: true, ...extra });
    const whole = await read({});
    const head = await read({ head: 3 });
    const tail = await read({ tail: 3 });
    const range = await read({ startLine: 1, endLine: 3 });
    expect(whole.text).toBe("1→one\n2→two\n3→three");
    expect(head.text).toBe(whole.text);
    expect(tail.text).toBe(whole.text);
    // The same lines, the same text: a range that is not cut adds no note of its own.
    expect(range.text).toBe(whole.text);
  });

  it("numbers the first lines the same way by head and by range when more lines follow", async () => {
    const read = (extra: object) =>
      conn.call("read_text_file", { path: p("crlf.txt"), lineNumbers: true, ...extra });
    const head = await read({ head: 2 });
    const range = await read({ startLine: 1, endLine: 2 });
    expect(head.text).toBe("1→one\n2→two");
    expect(range.text).toBe(head.text);
    expect(range.structured).toMatchObject({ startLine: 1, endLine: 2, totalLines: 3 });
  });

  it("answers a Latin-1 file the same way for every read shape, naming the path", async () => {
    const shapes = [{}, { head: 1 }, { tail: 1 }, { startLine: 1, endLine: 1 }, { lineNumbers: true }];
    const replies = [];
    for (const extra of shapes)
      replies.push(await conn.call("read_text_file", { path: p("latin1.txt"), ...extra }));
    for (const r of replies) {
      expect(r.isError).toBe(true);
      expect(r.text).not.toContain("\uFFFD");
      expect(r.text).toContain("latin1.txt");
      expect(r.text).toBe(replies[0]!.text);
    }
    const multi = await conn.call("read_multiple_files", { paths: [p("latin1.txt")] });
    expect(multi.text).not.toContain("\uFFFD");
    expect(multi.text).toContain(replies[0]!.text.replace(/^Error: /, ""));
  });
});

describe("workspace surface", () => {
  const project = area.tree("ws", { "crlf.txt": CRLF, "latin1.txt": LATIN1 });
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", project, "--console-only"]);
  });
  afterAll(async () => {
    await conn.close();
  });

  it("numbers a CRLF file as the filesystem surface does", async () => {
    const whole = await conn.call("read_file", { file_path: "crlf.txt", with_line_numbers: true });
    const range = await conn.call("read_file", { file_path: "crlf.txt", start_line: 1, end_line: 3 });
    expect(whole.text).toBe("1→one\n2→two\n3→three\n");
    expect(range.text).toBe(whole.text);
  });

  it("refuses a Latin-1 file whole and by range alike, naming the path", async () => {
    const whole = await conn.call("read_file", { file_path: "latin1.txt" });
    const range = await conn.call("read_file", { file_path: "latin1.txt", start_line: 1, end_line: 1 });
    for (const r of [whole, range]) {
      expect(r.isError).toBe(true);
      expect(r.text).toContain("latin1.txt");
      expect(r.text).not.toContain("\uFFFD");
    }
    expect(range.text).toBe(whole.text);
  });
});
