/**
 * The one text model (src/core/text/), property-tested: over random text with LF, CRLF, lone
 * CR, a BOM and no final newline, every way of reading (splitter, counter, head, tail, ranges, totals,
 * check_file_size's count) sees the same lines; an edit changes only the bytes of the lines it targets.
 */
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { checkFileSizes } from "../checks/file-sizes.js";
import { editKeepingEndings } from "../edit/edit.js";
import { makeRoot } from "../workspace.js";
import { parseDoc } from "./document.js";
import { type Line, LineCounter, linesOf, splitLines } from "./lines.js";
import { numberLines } from "./number.js";
import { countLinesFrom, headLines, rangeLines, tailLines, wholeText } from "./shapes.js";

const area = tempArea("mcpfs-textmodel-");
afterAll(() => area.cleanup());

/** The policy, written independently: lines end at LF; a CRLF line's CR is not shown; a lone CR is content. */
function reference(text: string): string[] {
  const lines = text.split("\n");
  const last = lines.pop()!;
  const out = lines.map((l) => l.replace(/\r$/, ""));
  if (last !== "") out.push(last);
  return out;
}

const texts = (lines: readonly Line[]) => lines.map((l) => l.text);
const linesOfWhole = (r: { text: string }) => linesOf(r.text);

const piece = fc.constantFrom("a", "bc", "é", " ", "\n", "\n", "\r\n", "\r\n", "\r", "\uFEFF");
const text = fc
  .tuple(fc.boolean(), fc.array(piece, { maxLength: 40 }))
  .map(([bom, parts]) => (bom ? "\uFEFF" : "") + parts.join(""));

describe("one line model for every read", () => {
  it("splitter, counter, head, tail, ranges and totals agree", async () => {
    const dir = area.tree("reads");
    const root = await makeRoot(dir, "rw", "directory");
    const file = path.join(root.real, "f.txt");
    await fc.assert(
      fc.asyncProperty(text, fc.nat(50), fc.nat(50), async (t, a, b) => {
        fs.writeFileSync(file, t);
        const want = reference(t);
        const n = want.length;
        expect(splitLines(t)).toEqual(want);
        const counter = new LineCounter();
        counter.push(Buffer.from(t));
        expect(counter.lines).toBe(n);
        // check_file_size's count (over a limit of 0, every line is reported).
        const sizes = await checkFileSizes(root, 0);
        expect(sizes.checked).toBe(1);
        expect(sizes.violations[0]?.lines ?? 0).toBe(n);
        const k = 1 + (a % (n + 2));
        const fh = await fs.promises.open(file);
        const size = Buffer.byteLength(t);
        try {
          expect(await countLinesFrom(fh, 0)).toBe(n);
          expect((await wholeText(fh, "f.txt", 1 << 20, size)).totalLines).toBe(n);
          const head = await headLines(fh, "f.txt", k);
          expect(texts(head.lines)).toEqual(want.slice(0, k));
          expect(head.more).toBe(k < n);
          const tail = await tailLines(fh, "f.txt", k, size);
          expect(texts(tail.lines)).toEqual(want.slice(Math.max(0, n - k)));
          expect(tail.more).toBe(k < n);
          const end = k + (b % 5);
          const range = await rangeLines(fh, "f.txt", k, end);
          expect(texts(range.lines)).toEqual(want.slice(k - 1, end));
          expect(range.more).toBe(end < n);
          const whole = await rangeLines(fh, "f.txt", 1);
          expect(texts(whole.lines)).toEqual(want);
          expect(whole.stop.lines).toBe(n);
        } finally {
          await fh.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Lines of bytes (undefined: not UTF-8), written independently of core/text. */
function byteReference(bytes: Buffer): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  for (let start = 0; start < bytes.length; ) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    let line = bytes.subarray(start, end);
    if (nl !== -1 && line[line.length - 1] === 13) line = line.subarray(0, -1);
    const t = line.toString("utf8");
    out.push(Buffer.from(t).equals(line) ? t : undefined);
    start = end + 1;
  }
  return out;
}

const bytePiece = fc.constantFrom(
  ...["a", "é", "\n", "\n", "\r\n", "\r"].map((t) => Buffer.from(t)),
  Buffer.from([0xe9]),
  Buffer.from([0xc3]),
  Buffer.from([0xef, 0xbb, 0xbf]),
);

describe("one decode policy for every read shape", () => {
  it("over random bytes, each shape returns its lines or refuses with not_utf8 naming the path", async () => {
    const file = path.join(area.tree("bytes"), "f.txt");
    const shape = async (run: () => Promise<readonly Line[]>, want: (string | undefined)[]) => {
      if (want.some((l) => l === undefined)) {
        const err = await run().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ kind: "not_utf8", detail: { path: "f.txt" } });
        expect(String((err as Error).message)).toContain("f.txt");
      } else expect(texts(await run())).toEqual(want);
    };
    await fc.assert(
      fc.asyncProperty(fc.array(bytePiece, { maxLength: 30 }), fc.nat(40), async (parts, a) => {
        const bytes = Buffer.concat(parts);
        fs.writeFileSync(file, bytes);
        const want = byteReference(bytes);
        const n = want.length;
        const k = 1 + (a % Math.max(1, n));
        const fh = await fs.promises.open(file);
        try {
          await shape(async () => linesOfWhole(await wholeText(fh, "f.txt", 1 << 20, bytes.length)), want);
          await shape(async () => (await headLines(fh, "f.txt", k)).lines, want.slice(0, k));
          await shape(async () => (await tailLines(fh, "f.txt", k, bytes.length)).lines, want.slice(-k));
          await shape(async () => (await rangeLines(fh, "f.txt", k)).lines, want.slice(k - 1));
          // Numbering: one formatter, the same numbers whatever the shape.
          if (want.every((l) => l !== undefined) && n > 0) {
            const all = numberLines(want as string[], 1);
            const tail = numberLines(want.slice(-k) as string[], n - k + 1);
            expect(tail.map((l) => l.trim())).toEqual(all.slice(-k).map((l) => l.trim()));
          }
        } finally {
          await fh.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("an edit changes only the lines it targets", () => {
  it("every untouched line keeps its bytes; a replaced line takes the ending of the one it replaces", () => {
    const line = fc.record({
      text: fc.constantFrom("a", "b", "c", "dd", "", " x"),
      eol: fc.constantFrom("\n", "\r\n"),
    });
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.nat(),
        fc.constantFrom("NEW", "NEW\nNEXT", ""),
        (bom, lines, finalBreak, at, replacement) => {
          const all = lines.map((l, i) => ({
            text: `${l.text}#${i}#`,
            eol: !finalBreak && i === lines.length - 1 ? "" : l.eol,
          }));
          const src = (bom ? "\uFEFF" : "") + all.map((l) => l.text + l.eol).join("");
          const i = at % all.length;
          // Replace the text of line i (unique thanks to its #i# tag), not its break.
          const out = editKeepingEndings(src, [{ oldText: all[i]!.text, newText: replacement }]).text;
          const doc = parseDoc(src);
          const expected =
            (bom ? "\uFEFF" : "") +
            all
              .map((l, j) => {
                if (j !== i) return l.text + l.eol;
                const added = replacement.split("\n");
                return added.join(doc.eol) + l.eol;
              })
              .join("");
          expect(out).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a multi-line replacement maps its breaks onto the breaks it replaces, in order", () => {
    const src = "a\r\nb\nc\r\nd\n";
    expect(editKeepingEndings(src, [{ oldText: "b\nc\n", newText: "B\nC\n" }]).text).toBe("a\r\nB\nC\r\nd\n");
    expect(editKeepingEndings(src, [{ oldText: "b\nc", newText: "B" }]).text).toBe("a\r\nB\r\nd\n");
    expect(
      editKeepingEndings(src, [
        { oldText: "a", newText: "A" },
        { oldText: "d", newText: "D" },
      ]).text,
    ).toBe("A\r\nb\nc\r\nD\n");
  });

  it("keeps every ending of a large mixed file (300k lines) when one line changes", () => {
    const lines = Array.from({ length: 300_000 }, (_, i) => `line ${i}${i % 3 === 0 ? "\r\n" : "\n"}`);
    const src = lines.join("");
    const out = editKeepingEndings(src, [{ oldText: "line 150001\n", newText: "changed\n" }]).text;
    lines[150_001] = "changed\n";
    expect(out === lines.join("")).toBe(true);
  });
});
