/**
 * Black-box: images that fit the model, on both surfaces (filesystem read_media_file, workspace
 * read_image), through the installed package, on images built here: a 4,000 × 3,000 PNG and JPEG, a WebP
 * and an animated GIF come back scaled to 1,568 px on the long side (decoded here to check), under the byte
 * limit, with one line naming both sizes; a small image and `original: true` come back byte for byte; a
 * header claiming 30,000 × 30,000 px and a corrupt file are refused by name without the memory a decode of
 * that size would take.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  imageSize,
  makeCorruptPng,
  makeGif,
  makeJpeg,
  makeJpegBomb,
  makePng,
  makePngBomb,
  makeWebp,
} from "../../bench/lib/images.mjs";
import { tempArea } from "../helpers/fixtures.js";
import { type Connection, startServer, type TextResult } from "../helpers/server.js";

const area = tempArea();
afterAll(() => area.cleanup());

/** What a default reply may carry: 3 MiB of base64 (the media floor over the 48 KB text budget). */
const DEFAULT_LIMIT = (3 * 1024 * 1024 * 3) / 4;

let files: Record<string, Buffer | string>;
beforeAll(async () => {
  files = {
    "img/big.png": makePng(4000, 3000),
    "img/big.jpg": await makeJpeg(4000, 3000),
    "img/pic.webp": await makeWebp(2400, 1600),
    "img/anim.gif": makeGif(2000, 1000, 3),
    "img/small.png": makePng(300, 200, { alpha: true }),
    "img/bomb.png": makePngBomb(30000, 30000),
    "img/bomb.jpg": makeJpegBomb(30000, 30000),
    "img/corrupt.png": makeCorruptPng(),
    // A PNG signature over 2.5 MB of zeros: no header to judge, more than one reply holds.
    "img/headless.png": Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(2_500_000)]),
    "notes.txt": "plain text\n",
  };
}, 120_000);

interface Surface {
  name: string;
  tool: string;
  start(root: string): Promise<Connection>;
  file(root: string, rel: string): Record<string, string>;
}

const SURFACES: Surface[] = [
  {
    name: "filesystem",
    tool: "read_media_file",
    start: (root) => startServer([root]),
    file: (root, rel) => ({ path: path.join(root, rel) }),
  },
  {
    name: "workspace",
    tool: "read_image",
    start: (root) => startServer(["--project-dir", root]),
    file: (_root, rel) => ({ file_path: rel }),
  },
];

const imageOf = (r: TextResult): { data: Buffer; mimeType: string } => {
  const block = r.raw.content.find((c: { type: string }) => c.type === "image");
  expect(block, r.text).toBeDefined();
  return { data: Buffer.from(block.data, "base64"), mimeType: block.mimeType };
};

/** Peak resident memory of a process (Linux), in MiB. */
const peakMiB = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

describe.each(SURFACES)("images, $name surface", (s) => {
  let root: string;
  let conn: Connection;
  beforeAll(async () => {
    root = area.tree(`${s.name}/root`, files);
    conn = await s.start(root);
  });
  afterAll(() => conn?.close());
  const read = (rel: string, extra: Record<string, unknown> = {}) =>
    conn.call(s.tool, { ...s.file(root, rel), ...extra });

  it.each([
    ["img/big.png", "png", [1568, 1176], "4000x3000 px"],
    ["img/big.jpg", "jpeg", [1568, 1176], "4000x3000 px"],
    ["img/pic.webp", "webp", [1568, 1045], "2400x1600 px"],
    ["img/anim.gif", "png", [1568, 784], "2000x1000 px"],
  ] as const)(
    "scales %s down to 1568 px on the long side (%s), under the byte limit",
    async (rel, format, size, from) => {
      const r = await read(rel);
      expect(r.isError, r.text).toBe(false);
      const img = imageOf(r);
      expect(img.mimeType).toBe(`image/${format}`);
      expect(await imageSize(img.data)).toEqual({ format, width: size[0], height: size[1] });
      expect(img.data.length).toBeLessThanOrEqual(DEFAULT_LIMIT);
      expect(r.text).toContain(
        `Image scaled to fit: ${from}, ${fs.statSync(path.join(root, rel)).size} bytes`,
      );
      expect(r.text).toContain(
        `-> ${size[0]}x${size[1]} px, ${img.data.length} bytes ${format.toUpperCase()}`,
      );
      expect(r.structured).toMatchObject({
        resized: { width: size[0], height: size[1], bytes: img.data.length, mimeType: `image/${format}` },
        size: fs.statSync(path.join(root, rel)).size,
      });
    },
  );

  it("keeps a GIF's first frame", async () => {
    const r = await read("img/anim.gif", { maxDimension: 20 });
    const { PNG } = await import("pngjs");
    const png = PNG.sync.read(imageOf(r).data);
    expect([...png.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it("returns a small image byte for byte, and any image with original: true", async () => {
    const small = await read("img/small.png");
    expect(imageOf(small).data.equals(fs.readFileSync(path.join(root, "img/small.png")))).toBe(true);
    expect(small.structured).toMatchObject({ width: 300, height: 200 });
    expect(small.structured?.resized).toBeUndefined();
    const jpg = await read("img/big.jpg", { original: true });
    expect(imageOf(jpg).data.equals(fs.readFileSync(path.join(root, "img/big.jpg")))).toBe(true);
    expect(jpg.structured?.resized).toBeUndefined();
  });

  it("refuses original: true for an image larger than one reply, naming the path", async () => {
    const r = await read("img/big.png", { original: true });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("big.png");
    expect(r.text).toMatch(/too large/i);
  });

  it("honours maxDimension and maxBytes", async () => {
    const dim = await read("img/big.png", { maxDimension: 400 });
    expect(await imageSize(imageOf(dim).data)).toEqual({ format: "png", width: 400, height: 300 });
    const bytes = await read("img/big.jpg", { maxBytes: 60_000 });
    const img = imageOf(bytes);
    expect(img.data.length).toBeLessThanOrEqual(60_000);
    expect((await imageSize(img.data)).format).toBe("jpeg");
    const tiny = await read("img/big.png", { maxBytes: 100 });
    expect(tiny.isError).toBe(true);
    expect(tiny.text).toMatch(
      /Cannot scale down .*big\.png: it does not fit in 100 bytes.*Ask for a larger maxBytes/,
    );
  });

  it("refuses a decompression bomb by its header, naming the path, without decoding it", async () => {
    for (const rel of ["img/bomb.png", "img/bomb.jpg"]) {
      const r = await read(rel);
      expect(r.isError).toBe(true);
      expect(r.text).toContain(path.basename(rel));
      expect(r.text).toContain("30000 x 30000 px");
    }
    // 30,000² RGBA is 3.4 GiB: the server never came near it.
    if (conn.pid && fs.existsSync(`/proc/${conn.pid}/status`)) expect(peakMiB(conn.pid)).toBeLessThan(1024);
  });

  it("refuses a corrupt image by name", async () => {
    const r = await read("img/corrupt.png");
    expect(r.isError).toBe(true);
    expect(r.text).toContain("corrupt.png");
    expect(r.text).toMatch(/could not be decoded/);
    const headless = await read("img/headless.png");
    expect(headless.isError).toBe(true);
    expect(headless.text).toContain("headless.png: its image header is unreadable");
  });
});

describe("read_image (workspace) on a file that is no image", () => {
  it("says what to use instead", async () => {
    const root = area.tree("ws-text", { "notes.txt": "plain text\n" });
    const conn = await startServer(["--project-dir", root]);
    try {
      const r = await conn.call("read_image", { file_path: "notes.txt" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain("Not an image: notes.txt");
    } finally {
      await conn.close();
    }
  });
});
