/**
 * The replies of both surfaces, property-tested over random bytes (LF, CRLF, lone CR, a BOM, bytes that are
 * not UTF-8, no final newline): whole, head, tail and range reads, numbered or not, agree with each other
 * and with a reference line split written here; a file whose lines are not UTF-8 gets the same refusal,
 * naming the path, from every shape that reaches those lines.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-replies-");
afterAll(() => area.cleanup());

/** Lines of the file's bytes: each ends at LF, a CRLF line's CR is its terminator's; undefined = not UTF-8. */
function reference(bytes: Buffer): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    let line = bytes.subarray(start, end);
    if (nl !== -1 && line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
    const text = line.toString("utf8");
    out.push(Buffer.from(text).equals(line) ? text : undefined);
    start = end + 1;
  }
  return out;
}

/** `N→text` lines of a numbered reply, as [number, text] (padding aside). */
function numbered(text: string): [number, string][] {
  if (text === "") return [];
  return text
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => {
      const m = /^ *(\d+)→(.*)$/s.exec(l);
      if (!m) throw new Error(`not a numbered line: ${JSON.stringify(l)}`);
      return [Number(m[1]), m[2]!];
    });
}

const piece = fc.constantFrom(
  Buffer.from("a"),
  Buffer.from("bc"),
  Buffer.from("é"),
  Buffer.from("\n"),
  Buffer.from("\n"),
  Buffer.from("\r\n"),
  Buffer.from("\r\n"),
  Buffer.from("\r"),
  Buffer.from([0xe9]),
  Buffer.from([0xff, 0xfe]),
);
const file = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 30 })).map(([bom, parts]) => {
  // FF FE at the very start is a UTF-16 BOM: such a file is UTF-16 text (test/e2e/encodings.test.ts).
  const lead = bom
    ? Buffer.from([0xef, 0xbb, 0xbf])
    : parts[0]?.[0] === 0xff
      ? Buffer.from("a")
      : Buffer.alloc(0);
  return Buffer.concat([lead, ...parts]);
});

describe("read replies of both surfaces agree", () => {
  const root = area.tree("root", {});
  const name = "f.txt";
  const p = path.join(root, name);
  let fsConn: Connection;
  let wsConn: Connection;
  beforeAll(async () => {
    fsConn = await startServer([root]);
    wsConn = await startServer(["--project-dir", root, "--console-only"]);
  });
  afterAll(async () => {
    await fsConn.close();
    await wsConn.close();
  });

  it("whole, head, tail, range and numbering, over random bytes", async () => {
    await fc.assert(
      fc.asyncProperty(file, fc.nat(40), fc.nat(40), async (bytes, a, b) => {
        fs.writeFileSync(p, bytes);
        const want = reference(bytes);
        const n = want.length;
        const valid = want.every((l) => l !== undefined);
        const call = (args: object) => fsConn.call("read_text_file", { path: p, ...args });
        const whole = await call({});
        const wholeN = await call({ lineNumbers: true });
        const ws = await wsConn.call("read_file", { file_path: name, with_line_numbers: true });
        if (!valid) {
          for (const r of [whole, wholeN, ws]) {
            expect(r.isError).toBe(true);
            expect(r.text).toContain(name);
            expect(r.text).not.toContain("\uFFFD");
          }
          expect(wholeN.text).toBe(whole.text);
        } else {
          expect(whole.text).toBe(bytes.toString("utf8"));
          const lines = numbered(wholeN.text);
          expect(lines).toEqual(want.map((t, i) => [i + 1, t]));
          expect(numbered(ws.text)).toEqual(lines);
        }
        if (n === 0) return;
        const k = 1 + (a % n);
        const start = 1 + (b % n);
        const end = Math.min(n, start + (a % 4));
        const shapes: [object, number, number][] = [
          [{ head: k }, 1, k],
          [{ tail: k }, n - k + 1, n],
          [{ startLine: start, endLine: end }, start, end],
        ];
        for (const [args, from, to] of shapes) {
          const r = await call({ ...args, lineNumbers: true });
          const part = want.slice(from - 1, to);
          if (part.some((l) => l === undefined)) {
            expect(r.isError).toBe(true);
            expect(r.text).toContain(name);
            if (!valid) expect(r.text).toBe(whole.text);
            continue;
          }
          expect(r.isError).toBe(false);
          // No shape adds a note of its own to lines that fit: the same lines, the same text.
          expect(numbered(r.text)).toEqual(part.map((t, i) => [from + i, t]));
          const plain = await call(args);
          expect(plain.text).toBe(part.join("\n"));
        }
        const wsRange = await wsConn.call("read_file", { file_path: name, start_line: start, end_line: end });
        const part = want.slice(start - 1, end);
        if (part.some((l) => l === undefined)) expect(wsRange.isError).toBe(true);
        else expect(numbered(wsRange.text)).toEqual(part.map((t, i) => [start + i, t]));
      }),
      { numRuns: 150 },
    );
  });
});
