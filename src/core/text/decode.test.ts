/**
 * The decode policy's encodings (core/text/decode.ts): BOM first, UTF-8 when valid, then the named
 * encoding; a refusal that guesses; the encoder refuses what an encoding cannot hold and an edit refuses a
 * file whose bytes do not come back unchanged.
 */
import { describe, expect, it } from "vitest";
import { wordedRejection, wordedThrow } from "../../../test/helpers/worded.js";
import { clientMessage } from "../../surfaces/wording.js";
import { ToolError } from "../errors.js";
import { decodeFile, decodeForEdit, decodingFor, encodeText } from "./decode.js";

const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n"
/** Enough Latin-1 text for chardet to guess from. */
const prose = Buffer.from(
  "Le café crème était très chaud; naïve façade, déjà vu à l'hôtel.\n".repeat(4),
  "latin1",
);

describe("decodeFile", () => {
  it("honours a UTF-16 BOM and keeps it as U+FEFF", async () => {
    const r = await decodeFile(Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00]), "f.txt");
    expect(r.text).toBe("\uFEFFa\n");
    expect(r.codec).toMatchObject({ name: "utf-16le", bom: 2, bytewise: false });
  });

  it("reads valid UTF-8 as UTF-8 whatever encoding is named", async () => {
    const r = await decodeFile(Buffer.from("café\n"), "f.txt", "latin1");
    expect(r.text).toBe("café\n");
    expect(r.codec.name).toBe("utf-8");
  });

  it("reads other bytes in the named encoding, and refuses them without one, guessing", async () => {
    expect((await decodeFile(latin1, "f.txt", "latin1")).text).toBe("café\n");
    const err = await decodeFile(prose, "f.txt").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({ kind: "not_utf8", detail: { path: "f.txt" } });
    expect(clientMessage(err)).toMatch(
      /^Not a UTF-8 text file: f\.txt\. Likely encodings \(a guess by chardet\): /,
    );
  });

  it("refuses an unknown encoding name with the path and the parameter", async () => {
    await expect(decodeFile(latin1, "f.txt", "klingon")).rejects.toMatchObject({
      kind: "invalid",
      detail: { path: "f.txt", parameter: "encoding" },
    });
  });

  it("says a file with NUL bytes looks binary instead of guessing", async () => {
    expect(await wordedRejection(decodeFile(Buffer.from([0, 0xff, 1]), "b.bin"))).toContain(
      "It looks binary.",
    );
    expect(await wordedRejection(decodeFile(latin1, "c.txt"))).toMatch(
      /(Likely encodings|could not be guessed)/,
    );
  });
});

describe("encodeText and decodeForEdit", () => {
  it("refuses a character the encoding cannot hold, naming it and the path", async () => {
    const { codec } = await decodeFile(latin1, "f.txt", "latin1");
    expect(encodeText("déjà", codec, "f.txt")).toEqual(Buffer.from([0x64, 0xe9, 0x6a, 0xe0]));
    expect(wordedThrow(() => encodeText("a€b", codec, "f.txt"))).toMatch(/"€" \(U\+20AC\) to f\.txt/);
  });

  it("refuses to edit a Shift-JIS file whose bytes spell a character the other way", async () => {
    // 0xED40 and 0xFA5C are both U+7E8A; iconv-lite writes 0xFA5C, so an edit would change 0xED40.
    await expect(decodeForEdit(Buffer.from([0xed, 0x40, 0x0a]), "s.txt", "shift_jis")).rejects.toMatchObject({
      kind: "invalid",
    });
    expect((await decodeForEdit(Buffer.from([0xfa, 0x5c, 0x0a]), "s.txt", "shift_jis")).text).toBe("纊\n");
  });
});

describe("Decoding (one read, line by line)", () => {
  it("stays UTF-8 while lines are valid, then switches to the named encoding", async () => {
    const d = await decodingFor(Buffer.from("ab"), "f.txt", "latin1");
    expect(d.decode(Buffer.from("naïve"))).toBe("naïve");
    expect(d.label).toBe("utf-8");
    expect(d.decode(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe("café");
    expect(d.label).toBe("latin1");
  });

  it("drops a character cut at the end of a budgeted line", async () => {
    const d = await decodingFor(Buffer.from("ab"), "f.txt", "shift_jis");
    const sjis = Buffer.from([0x82, 0xa0, 0x82, 0xa2, 0x82]); // "あい" and half of another character
    expect(d.decodePrefix(sjis)).toBe("あい");
  });
});
