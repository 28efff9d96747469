/**
 * core/images: the header reader states the size a decoder would allocate for, from the header alone (cut
 * or hostile headers give undefined, never a throw); area-averaging keeps a flat colour flat and weights
 * colour by alpha.
 */
import { describe, expect, it } from "vitest";
import {
  makeGif,
  makeJpeg,
  makeJpegBomb,
  makePng,
  makePngBomb,
  makeWebp,
} from "../../../bench/lib/images.mjs";
import { imageHeader } from "./header.js";
import { downscale } from "./resize.js";

describe("imageHeader", () => {
  it("reads the size of each format mcpfs decodes", async () => {
    expect(imageHeader(makePng(300, 200))).toEqual({ format: "png", width: 300, height: 200 });
    expect(imageHeader(await makeJpeg(64, 48))).toEqual({ format: "jpeg", width: 64, height: 48 });
    expect(imageHeader(await makeWebp(50, 40))).toEqual({ format: "webp", width: 50, height: 40 });
    expect(imageHeader(makeGif(20, 10))).toEqual({ format: "gif", width: 20, height: 10 });
  });

  it("states a bomb's claimed size without decoding it", () => {
    expect(imageHeader(makePngBomb(30000, 30000))).toEqual({ format: "png", width: 30000, height: 30000 });
    expect(imageHeader(makeJpegBomb(30000, 30000))).toEqual({ format: "jpeg", width: 30000, height: 30000 });
  });

  it("gives undefined for cut headers and other bytes", () => {
    const png = makePng(30, 20);
    for (let n = 0; n < 24; n++) expect(imageHeader(png.subarray(0, n))).toBeUndefined();
    expect(imageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toBeUndefined();
    expect(imageHeader(Buffer.from("plain text, no image"))).toBeUndefined();
  });
});

describe("downscale", () => {
  it("keeps a flat colour flat at any ratio", () => {
    const data = new Uint8Array(7 * 5 * 4);
    for (let i = 0; i < data.length; i += 4) data.set([10, 200, 30, 255], i);
    const out = downscale({ width: 7, height: 5, data }, 3, 2);
    expect(out.width * out.height).toBe(6);
    for (let i = 0; i < out.data.length; i += 4)
      expect([...out.data.subarray(i, i + 4)]).toEqual([10, 200, 30, 255]);
  });

  it("takes colour only from opaque pixels and averages alpha", () => {
    // Two pixels: opaque red, fully transparent green -> one pixel: red at half alpha.
    const data = new Uint8Array([255, 0, 0, 255, 0, 255, 0, 0]);
    expect([...downscale({ width: 2, height: 1, data }, 1, 1).data]).toEqual([255, 0, 0, 128]);
  });
});
