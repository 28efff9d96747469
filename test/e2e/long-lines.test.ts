/**
 * #13.5 "long lines", by effect: a file that is one huge line (no line break) is read through every read
 * path — head, tail, line ranges, line numbering, grep, the workspace read_file, resources/read — and each
 * call answers with the line cut to the output budget and a marker saying so, while the server's peak memory
 * stays bounded by the budget (not by the line) and a second call on the same server is answered. No clock:
 * a call that must go through the whole line (a range past it, the TS engine's grep) is still running when
 * the second call, sent after it, is answered (ordering); the others stop at the budget, and holding the line
 * (the code before the fix) shows in the memory bound.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-longline-");
afterAll(() => area.cleanup());

const MIB = 1024 * 1024;
/** Big enough that holding the line (or two copies of it) shows; written in ~0.1 s. */
const LINE_MIB = 128;
/**
 * Peak RSS growth allowed over the calls: well under one copy of the line. Streaming 128 MiB through
 * 64 KiB buffers leaves some tens of MiB of garbage before a collection frees them; holding the line
 * (the code before the fix) grew the peak by 256–650 MiB.
 */
const MAX_GROWTH_MIB = 96;

/** VmHWM (peak RSS) in MiB where /proc exists (Linux); elsewhere only the markers and the ordering are checked. */
function peakMiB(pid: number | null): number | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(s)![1]) / 1024;
  } catch {
    return undefined;
  }
}

function writeOneLine(file: string): void {
  const block = Buffer.alloc(MIB, "x");
  const fd = fs.openSync(file, "w");
  for (let i = 0; i < LINE_MIB; i++) fs.writeSync(fd, block);
  fs.writeSync(fd, "NEEDLE at the end");
  fs.closeSync(fd);
}

/** The ends of a long reply, so a failing assertion does not print 256 KiB of it. */
const ends = (t: string) => (t.length > 800 ? `${t.slice(0, 400)}…${t.slice(-400)}` : t);

/**
 * Sends a cheap call on the same server while `call` runs; it must be answered, and with `first`, before
 * `call` is (for a call that goes through the whole line: answered after it, it waited for the line).
 */
async function withBystander<T>(
  conn: Connection,
  small: string,
  call: Promise<T>,
  { first = false } = {},
): Promise<T> {
  const order: string[] = [];
  const long = call.finally(() => order.push("long"));
  const other = await conn.call("read_text_file", { path: small }).finally(() => order.push("small"));
  expect(other.text).toBe("small\n");
  const r = await long;
  if (first) expect(order, "a second call waited for the long-line read").toEqual(["small", "long"]);
  return r;
}

describe("a single 128 MiB line, filesystem surface", () => {
  let conn: Connection;
  let dir: string;
  let file: string;
  let small: string;
  let before: number | undefined;
  beforeAll(async () => {
    dir = area.tree("fs", { "small.txt": "small\n" });
    file = path.join(dir, "one-line.txt");
    small = path.join(dir, "small.txt");
    writeOneLine(file);
    conn = await startServer([dir]);
    await conn.call("read_text_file", { path: small });
    before = peakMiB(conn.pid);
  });
  afterAll(async () => {
    await conn?.close();
  });

  /** Name, arguments, marker, and whether the call goes through the whole line (see withBystander). */
  const cases: [string, Record<string, unknown>, RegExp, boolean][] = [
    ["head 1", { head: 1 }, /line 1 is longer than the output budget/, false],
    ["tail 1", { tail: 1 }, /the last line is longer than the output budget/, false],
    ["tail 1 with line numbers", { tail: 1, lineNumbers: true }, /the last line is longer/, false],
    ["whole read with line numbers", { lineNumbers: true }, /output truncated/, false],
    [
      "startLine 1",
      { startLine: 1, endLine: 1 },
      /line 1 is longer than the output budget .* Read on with startLine=2/,
      false,
    ],
    ["startLine 2", { startLine: 2 }, /no lines from line 2; the file has 1 lines/, true],
  ];
  for (const [name, args, marker, first] of cases)
    it(`${name}: cut to the budget with a marker, bounded memory, another call answered`, async () => {
      const call = conn.call("read_text_file", { path: file, ...args });
      const r = await withBystander(conn, small, call, { first });
      expect(r.isError, r.text.slice(0, 300)).toBe(false);
      expect(ends(r.text)).toMatch(marker);
      expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
      if (args.tail) expect(ends(r.text)).toContain("NEEDLE at the end");
      const peak = peakMiB(conn.pid);
      if (before !== undefined && peak !== undefined) expect(peak - before).toBeLessThan(MAX_GROWTH_MIB);
    });

  it("resources/read returns the line cut to the budget, with bounded memory", async () => {
    const r = await conn.client.readResource({ uri: `file://${file}` });
    const text = r.contents.map((c: { text?: string }) => c.text ?? "").join("");
    expect(text.length).toBeGreaterThan(0);
    expect(Buffer.byteLength(text)).toBeLessThan(300 * 1024);
    const peak = peakMiB(conn.pid);
    if (before !== undefined && peak !== undefined) expect(peak - before).toBeLessThan(MAX_GROWTH_MIB);
  });

  it("grep finds the text at the end of the line, with bounded memory", async () => {
    const r = await withBystander(
      conn,
      small,
      conn.call("grep", { path: dir, pattern: "NEEDLE", literal: true, contextLines: 1 }),
    );
    expect(r.isError, r.text.slice(0, 300)).toBe(false);
    expect(ends(r.text)).toMatch(
      /NEEDLE|a line of about \d+ bytes, too long to show; a match starts at byte/,
    );
    expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
    const peak = peakMiB(conn.pid);
    if (before !== undefined && peak !== undefined) expect(peak - before).toBeLessThan(MAX_GROWTH_MIB);
  });

  it("grep with the TS engine searches the line in bounded windows and finds the text at its end", async () => {
    const js = await startServer([dir], { env: { MCPFS_GREP_ENGINE: "js" } });
    try {
      await js.call("read_text_file", { path: small });
      const start = peakMiB(js.pid);
      const r = await withBystander(
        js,
        small,
        js.call("grep", { path: dir, pattern: "NEEDLE", literal: true, contextLines: 1 }),
        { first: true },
      );
      expect(r.isError, r.text.slice(0, 300)).toBe(false);
      expect(ends(r.text)).toMatch(/one-line\.txt.*NEEDLE at the end/s);
      expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
      const peak = peakMiB(js.pid);
      if (start !== undefined && peak !== undefined) expect(peak - start).toBeLessThan(MAX_GROWTH_MIB);
    } finally {
      await js.close();
    }
  });
});

describe("a single 128 MiB line, workspace surface", () => {
  let conn: Connection;
  let before: number | undefined;
  beforeAll(async () => {
    const dir = area.tree("ws", { "small.txt": "small\n" });
    writeOneLine(path.join(dir, "one-line.txt"));
    conn = await startServer(["--project-dir", dir]);
    await conn.call("read_file", { file_path: "small.txt" });
    before = peakMiB(conn.pid);
  });
  afterAll(async () => {
    await conn?.close();
  });

  for (const [name, args] of [
    ["whole read", {}],
    ["lines 1-1", { start_line: 1, end_line: 1 }],
  ] as const)
    it(`read_file ${name}: cut to the budget with a marker, bounded memory, another call answered`, async () => {
      const pending = conn.call("read_file", { file_path: "one-line.txt", ...args });
      const other = await conn.call("read_file", { file_path: "small.txt" });
      expect(other.text).toBe("small\n");
      const r = await pending;
      expect(r.isError, r.text.slice(0, 300)).toBe(false);
      expect(ends(r.text)).toMatch(/line 1 is longer than the output budget .* Read on with start_line=2/);
      expect(Buffer.byteLength(r.text)).toBeLessThan(300 * 1024);
      const peak = peakMiB(conn.pid);
      if (before !== undefined && peak !== undefined) expect(peak - before).toBeLessThan(MAX_GROWTH_MIB);
    });
});
