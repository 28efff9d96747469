/** The pure parts of read_document: page lists, cell ranges, mammoth's HTML as Markdown. */
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { wordedThrow } from "../../../test/helpers/worded.js";
import { parseRange, rangeName } from "./cells.js";
import { htmlToMarkdown } from "./html-markdown.js";
import { pageNumbers, pageSpec } from "./page-spec.js";
import { unzipBounded } from "./zip.js";

describe("page lists", () => {
  it("reads ranges, open ends and repeats, within the page count", () => {
    expect(pageNumbers("3-5,9, 4", 10)).toEqual([3, 4, 5, 9]);
    expect(pageNumbers("8-", 10)).toEqual([8, 9, 10]);
    expect(pageNumbers("9-40", 10)).toEqual([9, 10]);
    expect(pageNumbers(undefined, 3)).toEqual([1, 2, 3]);
  });

  it("refuses what is not a page list", () => {
    expect(wordedThrow(() => pageNumbers("5-3", 10))).toMatch(/not a range/);
    expect(wordedThrow(() => pageNumbers("x", 10))).toMatch(/not a page or range/);
    expect(wordedThrow(() => pageNumbers("11", 10))).toMatch(/past the last page \(10\)/);
  });

  it("names numbers with the shortest list, which reads back to them", () => {
    const pages = [1, 2, 3, 5, 7, 8];
    expect(pageSpec(pages)).toBe("1-3,5,7-8");
    expect(pageNumbers(pageSpec(pages), 8)).toEqual(pages);
  });
});

describe("cell ranges", () => {
  it("reads A1:F40, one cell, and columns past Z", () => {
    expect(rangeName(parseRange("b2:f40")!)).toBe("B2:F40");
    expect(rangeName(parseRange("C7")!)).toBe("C7:C7");
    expect(rangeName(parseRange("Z1:AB3")!)).toBe("Z1:AB3");
    expect(wordedThrow(() => parseRange("F40:B2"))).toMatch(/not a cell range/);
  });
});

describe("mammoth's HTML as Markdown", () => {
  it("writes nested lists, emphasis, links and a table with escaped pipes", () => {
    const html =
      "<h2>T</h2><ul><li>a<ul><li>b</li></ul></li><li>c</li></ul><ol><li>one</li><li>two</li></ol>" +
      '<p><strong>bold</strong> and <a href="https://x.test/?a=1&amp;b=2">link</a></p>' +
      "<table><tr><td><p>h|1</p></td><td><p>h2</p></td></tr><tr><td><p>x</p></td><td><p>y</p></td></tr></table>";
    expect(htmlToMarkdown(html)).toEqual([
      "## T",
      "",
      "- a",
      "  - b",
      "- c",
      "",
      "1. one",
      "2. two",
      "",
      "**bold** and [link](https://x.test/?a=1&b=2)",
      "",
      "| h\\|1 | h2 |",
      "| --- | --- |",
      "| x | y |",
    ]);
  });
});

describe("unzipBounded", () => {
  const zip = () => Buffer.from(zipSync({ "a.xml": strToU8("x".repeat(10_000)), "b.bin": strToU8("bee") }));
  /** The central directory's declared size of the first entry, rewritten (a zip that lies about it). */
  const declare = (z: Buffer, size: number) => {
    const cen = z.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    z.writeUInt32LE(size, cen + 24);
    return z;
  };

  it("inflates the entries asked for", () => {
    const files = unzipBounded(zip(), (n) => n === "a.xml", 1 << 20);
    expect([...files.keys()]).toEqual(["a.xml"]);
    expect(files.get("a.xml")!.length).toBe(10_000);
  });

  it("refuses declared sizes over the cap before inflating, and an entry that inflates past its size", () => {
    expect(wordedThrow(() => unzipBounded(zip(), () => true, 5_000))).toMatch(/zip bomb/);
    expect(wordedThrow(() => unzipBounded(declare(zip(), 100), () => true, 1 << 20))).toMatch(/zip bomb/);
  });

  it("calls bytes that are no zip invalid", () => {
    expect(
      wordedThrow(() => unzipBounded(Buffer.from("not a zip at all, just text"), () => true, 1 << 20)),
    ).toMatch(/not a valid zip container/);
    expect(wordedThrow(() => unzipBounded(zip().subarray(0, 60), () => true, 1 << 20))).toMatch(
      /not a valid zip/,
    );
  });
});
