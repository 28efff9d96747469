/** Line-range edits: bottom-up, each line's own ending kept (CRLF, LF, a lone CR as content), overlaps refused. */
import { describe, expect, it } from "vitest";
import { applyLineEdits } from "./line-edit.js";

const e = (startLine: number, endLine: number, newText: string) => ({ startLine, endLine, newText });

describe("applyLineEdits", () => {
  it("applies edits bottom-up against the text as read", () => {
    expect(applyLineEdits("a\nb\nc\nd\n", [e(1, 1, "A1\nA2"), e(3, 4, "CD")])).toBe("A1\nA2\nb\nCD\n");
  });

  it("keeps each line's ending: CRLF, LF, and a lone CR inside a line", () => {
    const text = "one\r\ntwo\nthr\ree\r\nfour";
    expect(applyLineEdits(text, [e(2, 2, "TWO")])).toBe("one\r\nTWO\nthr\ree\r\nfour");
    expect(applyLineEdits(text, [e(3, 3, "x\ny")])).toBe("one\r\ntwo\nx\r\ny\r\nfour");
    expect(applyLineEdits(text, [e(4, 4, "FOUR")])).toBe("one\r\ntwo\nthr\ree\r\nFOUR");
  });

  it("inserts (endLine = startLine - 1), also after a last line without an ending", () => {
    expect(applyLineEdits("a\r\nb\r\n", [e(2, 1, "new")])).toBe("a\r\nnew\r\nb\r\n");
    expect(applyLineEdits("a\nb", [e(3, 2, "c")])).toBe("a\nb\nc");
    expect(applyLineEdits("", [e(1, 0, "first\n")])).toBe("first\n");
  });

  it("deletes lines with empty text", () => {
    expect(applyLineEdits("a\nb\nc\n", [e(2, 2, "")])).toBe("a\nc\n");
  });

  it("refuses overlapping ranges, two inserts at one place, and ranges outside the file", () => {
    expect(() => applyLineEdits("a\nb\nc\n", [e(1, 2, "x"), e(2, 3, "y")])).toThrow(/overlap/);
    expect(() => applyLineEdits("a\nb\n", [e(2, 1, "x"), e(2, 1, "y")])).toThrow(/overlap/);
    expect(() => applyLineEdits("a\nb\n", [e(3, 3, "x")])).toThrow(/outside/);
    expect(() => applyLineEdits("a\nb\n", [e(2, 0, "x")])).toThrow(/outside/);
  });
});
