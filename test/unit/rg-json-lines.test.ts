import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_JSON_LINE, rgJsonLines } from "../../src/core/search/rg-json-lines.js";

/** Feeds `text` in pieces of the given sizes and collects what the splitter reports. */
async function split(text: string, sizes: number[]) {
  const input = new PassThrough();
  const short: string[] = [];
  const long: { head: string; after: string; bytes: number }[] = [];
  rgJsonLines(
    input,
    (l) => short.push(l),
    (head, after, bytes) => long.push({ head, after, bytes }),
  );
  const done = new Promise((r) => input.on("end", r));
  const buf = Buffer.from(text);
  let at = 0;
  for (let k = 0; at < buf.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]!);
    input.write(buf.subarray(at, at + n));
    at += n;
  }
  input.end();
  await done;
  return { short, long };
}

describe("rgJsonLines", () => {
  it("hands short lines over whole, however the stream is cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.json(), { minLength: 1, maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
        async (lines, sizes) => {
          const oneLine = lines.map((l) => JSON.stringify(JSON.parse(l)));
          const { short, long } = await split(`${oneLine.join("\n")}\n`, sizes);
          expect(short).toEqual(oneLine);
          expect(long).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("skips a long line's text, escaped quotes and backslashes included, and keeps what follows it", async () => {
    for (const filler of ["x", '\\"', "\\\\", 'a\\\\\\"b']) {
      const text = filler.repeat(Math.ceil((MAX_JSON_LINE * 1.5) / filler.length));
      const record =
        `{"type":"match","data":{"path":{"text":"f.txt"},"lines":{"text":"${text}"},"line_number":7,` +
        `"submatches":[{"match":{"text":"NEEDLE"},"start":12,"end":18}]}}`;
      const { short, long } = await split(`${record}\n{"type":"end","data":{}}\n`, [65536, 4093, 1]);
      expect(long).toHaveLength(1);
      expect(JSON.parse(`${long[0]!.head}"}}}`).data.path.text).toBe("f.txt");
      expect(long[0]!.after).toMatch(
        /^\},"line_number":7,"submatches":\[\{"match":\{"text":"NEEDLE"\},"start":12/,
      );
      expect(short).toEqual(['{"type":"end","data":{}}']);
    }
  });
});
