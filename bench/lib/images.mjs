/**
 * Images for read_media_file / read_image tests and benchmarks, written and read back by the same codecs
 * people use (pngjs, mozjpeg and libwebp in WASM from @jsquash, omggif), plus hand-written pathological
 * files: a header that claims 30,000 × 30,000 px (a decompression bomb) and a header over garbage.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { GifReader, GifWriter } from "omggif";
import { PNG } from "pngjs";

const require = createRequire(import.meta.url);

/** RGBA pixels of a photo-like test picture: gradients, a pattern and some noise (so codecs have work). */
export function pixels(width, height, { alpha = false } = {}) {
  const data = new Uint8Array(width * height * 4);
  let seed = 7;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = (((x >> 4) ^ (y >> 4)) & 1) * 160 + ((seed >>> 24) & 31);
      data[i + 3] = alpha ? (x * 255) / width : 255;
    }
  return data;
}

export function makePng(width, height, opts = {}) {
  const png = new PNG({ width, height });
  png.data = Buffer.from(pixels(width, height, opts).buffer);
  return PNG.sync.write(png, { deflateLevel: 1 });
}

/** A fresh instance of an @jsquash Emscripten codec (Node cannot fetch its .wasm by URL). */
async function codec(pkg, dir, base) {
  const root = path.dirname(require.resolve(`${pkg}/package.json`));
  const wasm = await WebAssembly.compile(readFileSync(path.join(root, dir, `${base}.wasm`)));
  const { default: factory } = await import(`${pkg}/${dir}/${base}.js`);
  return factory({
    noInitialRun: true,
    instantiateWasm(imports, done) {
      const inst = new WebAssembly.Instance(wasm, imports);
      done(inst);
      return inst.exports;
    },
  });
}

export async function makeJpeg(width, height, quality = 90) {
  const { defaultOptions } = await import("@jsquash/jpeg/meta.js");
  const enc = await codec("@jsquash/jpeg", "codec/enc", "mozjpeg_enc");
  return Buffer.from(
    enc.encode(pixels(width, height), width, height, { ...defaultOptions, quality, progressive: false }),
  );
}

export async function makeWebp(width, height, quality = 90) {
  const { defaultOptions } = await import("@jsquash/webp/meta.js");
  const enc = await codec("@jsquash/webp", "codec/enc", "webp_enc_simd");
  return Buffer.from(enc.encode(pixels(width, height), width, height, { ...defaultOptions, quality }));
}

/** An animated GIF: `frames` frames, each a flat colour (frame k: palette entry k). */
export function makeGif(width, height, frames = 3) {
  const buf = Buffer.alloc(width * height * frames + 4096);
  const palette = [0xff0000, 0x00ff00, 0x0000ff, 0xffffff];
  const gif = new GifWriter(buf, width, height, { palette, loop: 0 });
  for (let k = 0; k < frames; k++) gif.addFrame(0, 0, width, height, new Array(width * height).fill(k % 4));
  return buf.subarray(0, gif.end());
}

const crc32 = (() => {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  return (b) => {
    let c = 0xffffffff;
    for (const x of b) c = table[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
})();

const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
};

/**
 * A valid PNG stating `width` × `height` whose IDAT is a small deflate stream of zeros (a decompression bomb
 * when the size is huge: a decoder would allocate width × height × 4 bytes).
 */
export function makePngBomb(width = 30000, height = 30000) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat = deflateSync(Buffer.alloc(1 << 20));
  return Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

/** A JPEG whose frame header states `width` × `height`, followed by a few bytes of nothing. */
export function makeJpegBomb(width = 30000, height = 30000) {
  const sof = Buffer.from([0xff, 0xc0, 0, 17, 8, height >> 8, height & 255, width >> 8, width & 255, 3]);
  const comps = Buffer.from([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, comps, Buffer.from([0xff, 0xd9])]);
}

/** A PNG header stating 5,000 × 4,000 px over bytes that are no image (a corrupt file). */
export function makeCorruptPng() {
  const head = makePngBomb(5000, 4000).subarray(0, 33);
  return Buffer.concat([head, Buffer.alloc(4000, 0x5a)]);
}

/** Decodes an image's bytes (as a client would) to its size: PNG, JPEG, WebP or GIF. */
export async function imageSize(bytes) {
  const b = Buffer.from(bytes);
  if (b[0] === 0x89) {
    const p = PNG.sync.read(b);
    return { format: "png", width: p.width, height: p.height };
  }
  if (b[0] === 0xff) {
    const dec = await codec("@jsquash/jpeg", "codec/dec", "mozjpeg_dec");
    const r = dec.decode(b, false);
    return { format: "jpeg", width: r.width, height: r.height };
  }
  if (b.toString("latin1", 0, 4) === "RIFF") {
    const dec = await codec("@jsquash/webp", "codec/dec", "webp_dec");
    const r = dec.decode(b);
    return { format: "webp", width: r.width, height: r.height };
  }
  const g = new GifReader(b);
  return { format: "gif", width: g.width, height: g.height };
}
