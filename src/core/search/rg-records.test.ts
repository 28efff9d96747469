import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rgRecords } from "./rg-records.js";

/** Feeds `bytes` in pieces of the given sizes and collects the records read. */
async function read(bytes: Buffer, sizes: number[]) {
  const input = new PassThrough();
  const out: [string, number, boolean][] = [];
  rgRecords(input, (p, line, afterWarning) => out.push([p, line, afterWarning]));
  const done = new Promise((r) => input.on("end", r));
  let at = 0;
  for (let k = 0; at < bytes.length; k++) {
    const n = Math.max(1, sizes[k % sizes.length]!);
    input.write(bytes.subarray(at, at + n));
    at += n;
  }
  input.end();
  await done;
  return out;
}

const warning = (p: string, offset: number, crlf = false) =>
  `${p}: WARNING: stopped searching binary file after match (found "\\0" byte around offset ${offset})${crlf ? "\r" : ""}\n`;
const OMITTED = "[Omitted long matching line]";

// Any name but NUL, line breaks, colons and warning-like text included.
const name = fc
  .array(fc.constantFrom("a", "é", "\n", "\r", ":", " ", "0", "-", "/", "WARNING: ", '"\\0"', "\u001b["), {
    minLength: 1,
    maxLength: 12,
  })
  .map((parts) => `./${parts.join("")}`);

describe("rgRecords", () => {
  it("reads every (path, line) of ripgrep's --null output, however the stream is cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            path: name,
            lines: fc.uniqueArray(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 4 }),
            text: fc.constantFrom("", "x", "\r", OMITTED, `${OMITTED}\r`),
            binary: fc.boolean(),
          }),
          { selector: (f) => f.path, maxLength: 6 },
        ),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }),
        async (files, sizes) => {
          let text = "";
          const want: [string, number, boolean][] = [];
          let warned = false;
          for (const f of files) {
            for (const [k, line] of f.lines.entries()) {
              text += `${f.path}\0${line}:${f.text}\n`;
              want.push([f.path, line, warned && k === 0]);
            }
            warned = f.binary;
            if (f.binary) text += warning(f.path, 200_008, f.text.endsWith("\r"));
          }
          expect(await read(Buffer.from(text), sizes)).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes a warning off the next path only when it is the previous path's, and says so", async () => {
    const p = "./a.bin";
    const crafted = `${warning(p, 7).slice(0, -1)}\n./secret.env`;
    const text =
      `${p}\x001:x\n${warning(p, 9)}./b.txt\x002:${OMITTED}\n` +
      // A name that begins with a warning of the previous path: read as warning + path, flagged.
      `./b.txt: WARNING: nothing like it\n./c\x003:\n${p}\x004:x\n${crafted}\x005:x\n`;
    expect(await read(Buffer.from(text), [3, 64])).toEqual([
      [p, 1, false],
      ["./b.txt", 2, true],
      ["./b.txt: WARNING: nothing like it\n./c", 3, false],
      [p, 4, false],
      ["./secret.env", 5, true],
    ]);
  });

  it("keeps a path's bytes as printed (not UTF-8 included) and skips malformed records", async () => {
    const odd = Buffer.concat([Buffer.from("./x"), Buffer.from([0xff, 0xfe]), Buffer.from("y")]);
    const bytes = Buffer.concat([
      odd,
      Buffer.from("\x0012:a\n./no-number\x00:x\n./bad\x001x2:\n./ok\x007:\n./tail-without-end\x009"),
    ]);
    expect(await read(bytes, [1, 2, 5])).toEqual([
      [odd.toString("utf8"), 12, false],
      ["./ok", 7, false],
    ]);
  });
});
