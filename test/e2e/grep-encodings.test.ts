/**
 * Black-box: grep follows the reads' decode policy (installed package, both surfaces). A UTF-16 file with a
 * BOM is searched as its text; a file in a legacy encoding is searched in the call's `encoding` or in
 * `--default-encoding`, and its matched line comes back as text; without either it is not searched (as a
 * binary file), while the UTF-8 files of the same tree are searched as UTF-8 whatever the encoding.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { serverPool } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());
const start = serverPool();

/** Debian's iconv makes the legacy and UTF-16 bytes. */
const encoded = (text: string, to: string) =>
  execFileSync("iconv", ["-f", "UTF-8", "-t", to], { input: text });

const tree = (name: string): string =>
  area.tree(name, {
    "latin1.txt": encoded("un café au lait\nrien\n", "ISO-8859-1"),
    "sjis.txt": encoded("東京の駅です\n", "SHIFT_JIS"),
    "utf8.txt": "un café crème\n",
    "utf16.txt": Buffer.concat([Buffer.from([0xff, 0xfe]), encoded("un café noir\n", "UTF-16LE")]),
  });

describe("grep and the decode policy (filesystem surface)", () => {
  it("without an encoding: UTF-8 and UTF-16 with a BOM are searched, the Latin-1 file is not", async () => {
    const root = tree("plain");
    const c = await start([root]);
    const r = await c.call("grep", { path: root, pattern: "café" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("un café crème");
    expect(r.text).toContain("un café noir");
    expect(r.text).not.toContain("latin1.txt");
    expect(r.text).not.toContain("\uFFFD");
  });

  it("with encoding latin1: the Latin-1 file's line comes back as text, the UTF-8 file stays UTF-8", async () => {
    const root = tree("named");
    const c = await start([root]);
    const r = await c.call("grep", { path: root, pattern: "café", encoding: "latin1" });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("un café au lait");
    expect(r.text).toContain("un café crème");
    expect(r.text).toContain("un café noir");
    expect(r.text).not.toContain("\uFFFD");
    expect(r.text).not.toContain("cafÃ©");
  });

  it("--default-encoding shift_jis: the Shift-JIS file is searched, with context lines decoded", async () => {
    const root = tree("flag");
    const c = await start(["--default-encoding", "shift_jis", root]);
    const r = await c.call("grep", { path: root, pattern: "東京", contextLines: 1 });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain("東京の駅です");
    const l = await c.call("grep", { path: root, pattern: "rien", encoding: "latin1", contextLines: 1 });
    expect(l.text).toContain("un café au lait");
    expect(l.text).toContain("rien");
  });
});

describe("grep and the decode policy (workspace search_files)", () => {
  it("--default-encoding latin1: content search finds the Latin-1 line as text", async () => {
    const root = tree("ws");
    const c = await start(["--project-dir", root, "--default-encoding", "latin1"]);
    const r = await c.call("search_files", { pattern: "café" });
    expect(r.isError, r.text).toBe(false);
    const text = JSON.stringify(r.structured);
    for (const want of ["un café au lait", "un café crème", "un café noir"]) expect(text).toContain(want);
    expect(text).not.toContain("\\ufffd");
  });
});
