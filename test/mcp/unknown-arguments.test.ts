/**
 * A tool that changes files refuses an argument it does not take, and changes nothing: ignored (as both
 * originals ignore it), the other surface's spelling of `dryRun` wrote the file, and of `expectedSha256`
 * skipped the lost-update check. A reading tool runs without them, as the originals do, and says so.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea();
afterAll(() => area.cleanup());
const STALE = "0".repeat(64);

describe("filesystem surface", () => {
  const root = area.tree("fs", { "a.txt": "hello\n", "r.txt": "read me\n" });
  const file = path.join(root, "a.txt");
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer([root]);
  });
  afterAll(() => conn.close());

  it("edit_file with the workspace's dry_run and expected_sha256 names both and writes nothing", async () => {
    const r = await conn.call("edit_file", {
      path: file,
      edits: [{ oldText: "hello", newText: "bye" }],
      dry_run: true,
      expected_sha256: STALE,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(
      "unknown parameters dry_run (did you mean dryRun?), expected_sha256 (did you mean expectedSha256?); nothing was done. Its parameters: path, edits, dryRun, expectedSha256, encoding.",
    );
    expect(fs.readFileSync(file, "utf8")).toBe("hello\n");
    const changes = await conn.call("list_changes", {});
    expect(changes.text).not.toContain("edit_file");
  });

  it("edit_files with a file's expected_sha256 misspelt refuses, and no file changes", async () => {
    const r = await conn.call("edit_files", {
      files: [
        { path: file, edits: [{ oldText: "hello", newText: "bye" }] },
        {
          path: path.join(root, "r.txt"),
          edits: [{ oldText: "read", newText: "x" }],
          expected_sha256: STALE,
        },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(
      "unknown parameter files[1].expected_sha256 (did you mean expectedSha256?); nothing was done. Its parameters: files, dryRun, encoding.",
    );
    expect(fs.readFileSync(file, "utf8")).toBe("hello\n");
    expect(fs.readFileSync(path.join(root, "r.txt"), "utf8")).toBe("read me\n");
  });

  it("write_file with an argument it does not take creates nothing", async () => {
    const r = await conn.call("write_file", { path: path.join(root, "b.txt"), content: "x", mode: "0600" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter mode; nothing was done.");
    expect(fs.existsSync(path.join(root, "b.txt"))).toBe(false);
  });

  it("every changing tool refuses an argument it does not take before it runs; the catalog is unchanged", async () => {
    const { tools } = await conn.client.listTools();
    const changing = tools.filter(
      (t: { annotations?: { readOnlyHint?: boolean } }) => !t.annotations?.readOnlyHint,
    );
    expect(changing.length).toBeGreaterThan(10);
    for (const t of changing) {
      const r = await conn.call(t.name, { zz_not_a_parameter: 1 });
      expect(r.isError, t.name).toBe(true);
      expect(r.text, t.name).toContain(
        `Invalid arguments for tool ${t.name}: unknown parameter zz_not_a_parameter; nothing was done.`,
      );
    }
    // Refused by the server, not announced: the listing costs no token more.
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBeUndefined();
    expect(fs.readdirSync(root).sort()).toEqual(["a.txt", "r.txt"]);
  });

  it("a reading tool answers without an argument it does not take, and its last block says so", async () => {
    // Claude Code's Read takes offset and limit: read here, they would read the whole file unannounced.
    const r = await conn.call("read_text_file", { path: path.join(root, "r.txt"), offset: 2, limit: 5 });
    expect(r.isError).toBe(false);
    const blocks = r.raw.content.map((c: { text: string }) => c.text);
    expect(blocks).toEqual([
      "read me\n",
      "[mcpfs: ignored unknown parameters offset, limit. This tool takes: path, tail, head, startLine, endLine, lineNumbers, hash, encoding.]",
    ]);
    expect(r.structured?.content).toBe("read me\n");
    const plain = await conn.call("read_text_file", { path: path.join(root, "r.txt") });
    expect(plain.raw.content).toHaveLength(1);
  });
});

describe("a small reply budget", () => {
  const root = area.tree("tight", { "big.txt": `${"line of text\n".repeat(200)}` });
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--max-output-bytes", "1024", root]);
  });
  afterAll(() => conn.close());

  it("holds the note's room before the tool runs: the reply with it stays within the budget", async () => {
    const r = await conn.call("read_text_file", { path: path.join(root, "big.txt"), offset: 1, limit: 10 });
    const texts: string[] = r.raw.content.map((c: { text: string }) => c.text);
    expect(texts.at(-1)).toContain("[mcpfs: ignored unknown parameters offset, limit.");
    expect(texts.reduce((n, t) => n + Buffer.byteLength(t), 0)).toBeLessThanOrEqual(1024);
    expect(conn.stderr()).not.toContain("final cut fired");
  });

  it("names a long or numerous argument briefly: the note and the refusal stay small", async () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${"k".repeat(5000)}${i}`, 1]));
    const r = await conn.call("read_text_file", { path: path.join(root, "big.txt"), head: 1, ...many });
    const texts: string[] = r.raw.content.map((c: { text: string }) => c.text);
    expect(texts.at(-1)).toMatch(
      /^\[mcpfs: ignored unknown parameters k{79}…, .* and 42 more\. This tool takes: /,
    );
    expect(texts.reduce((n, t) => n + Buffer.byteLength(t), 0)).toBeLessThanOrEqual(1024);
    const w = await conn.call("write_file", { path: path.join(root, "w.txt"), content: "x", ...many });
    expect(w.isError).toBe(true);
    expect(Buffer.byteLength(w.text)).toBeLessThan(1024);
    expect(fs.existsSync(path.join(root, "w.txt"))).toBe(false);
  });
});

describe("workspace surface", () => {
  const root = area.tree("ws", { "a.txt": "hello\n" });
  const file = path.join(root, "a.txt");
  let conn: Connection;
  beforeAll(async () => {
    conn = await startServer(["--project-dir", root]);
  });
  afterAll(() => conn.close());

  it("edit_file with the filesystem's dryRun writes nothing", async () => {
    const r = await conn.call("edit_file", {
      file_path: "a.txt",
      old_string: "hello",
      new_string: "bye",
      dryRun: true,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter dryRun (did you mean dry_run?); nothing was done.");
    expect(fs.readFileSync(file, "utf8")).toBe("hello\n");
  });

  it("edit_file with an edit's replaceAll (the filesystem's name) changes nothing", async () => {
    fs.writeFileSync(path.join(root, "m.txt"), "a\na\n");
    const r = await conn.call("edit_file", {
      file_path: "m.txt",
      edits: [{ old_text: "a", new_text: "b", replaceAll: true }],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter edits[0].replaceAll; nothing was done.");
    expect(fs.readFileSync(path.join(root, "m.txt"), "utf8")).toBe("a\na\n");
  });

  it("outline given read_symbol's file_path says it outlined the project instead", async () => {
    const r = await conn.call("outline", { file_path: "a.txt" });
    expect(r.text).toContain(
      "[mcpfs: ignored unknown parameter file_path. This tool takes: path, depth, signatures, offset.]",
    );
  });

  it("save_file with the filesystem's expectedSha256 overwrites nothing", async () => {
    const r = await conn.call("save_file", {
      file_path: "a.txt",
      content: "theirs\n",
      expectedSha256: STALE,
    });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("unknown parameter expectedSha256 (did you mean expected_sha256?)");
    expect(fs.readFileSync(file, "utf8")).toBe("hello\n");
  });
});
