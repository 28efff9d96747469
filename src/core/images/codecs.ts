/**
 * Decoders and encoders, in the document worker (each loaded on its first use). Chosen by measurement on a
 * 4,000 × 3,000 image (CPU time, one core): JPEG by mozjpeg compiled to WASM (@jsquash/jpeg: decode 0.16 s,
 * where pure-JS jpeg-js took 1.4 s and 2.8× the memory); WebP by libwebp in WASM (@jsquash/webp: no pure-JS
 * WebP codec exists); PNG by pngjs (pure JS over Node's zlib: decode 0.5 s; nothing to keep between calls);
 * GIF by omggif (pure JS, 7 KB; first frame only). A WASM codec is instantiated for each call and dropped
 * after it, so the memory one large image took goes back (a WASM memory never shrinks while it lives).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ToolError } from "../errors.js";
import type { ImageFormat } from "./header.js";
import type { Rgba } from "./resize.js";

/** An Emscripten codec's module factory, as @jsquash ships it. */
type Factory<M> = (opts: Record<string, unknown>) => Promise<M>;
interface Decoder {
  decode(
    data: Uint8Array,
    ...rest: boolean[]
  ): { width: number; height: number; data: Uint8ClampedArray } | null;
}
interface Encoder {
  encode(data: Uint8Array, width: number, height: number, opts: object): Uint8Array | null;
}

/** The WASM files mcpfs ships beside the bundle (scripts/bundle.mjs copies them to `codecs/`). */
export const CODEC_WASM = {
  "mozjpeg_dec.wasm": "@jsquash/jpeg/codec/dec",
  "mozjpeg_enc.wasm": "@jsquash/jpeg/codec/enc",
  "webp_dec.wasm": "@jsquash/webp/codec/dec",
  "webp_enc_simd.wasm": "@jsquash/webp/codec/enc",
} as const;

type WasmName = keyof typeof CODEC_WASM;

/** Beside the bundled worker, or (unbundled build) in node_modules above this module. */
function wasmPath(name: WasmName): string {
  const bundled = fileURLToPath(new URL(`./codecs/${name}`, import.meta.url));
  if (existsSync(bundled)) return bundled;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", CODEC_WASM[name], name);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new ToolError("invalid", { reason: "image_codec_missing", name });
  }
}

const compiled = new Map<WasmName, Promise<WebAssembly.Module>>();

/** A fresh instance of a codec (its module compiled once per worker). */
async function instance<M>(factory: Factory<M>, name: WasmName): Promise<M> {
  const mod = compiled.get(name) ?? WebAssembly.compile(readFileSync(wasmPath(name)));
  compiled.set(name, mod);
  const wasm = await mod;
  return factory({
    noInitialRun: true,
    instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) {
      const inst = new WebAssembly.Instance(wasm, imports);
      done(inst);
      return inst.exports;
    },
  });
}

const corrupt = () => new ToolError("invalid", { reason: "image_corrupt" });

function rgba(img: { width: number; height: number; data: Uint8ClampedArray } | null): Rgba {
  if (!img) throw corrupt();
  return { width: img.width, height: img.height, data: new Uint8Array(img.data.buffer, 0, img.data.length) };
}

async function decodeGif(data: Uint8Array, maxPixels: number): Promise<Rgba> {
  const { GifReader } = await import("omggif");
  const g = new GifReader(data);
  const f = g.frameInfo(0);
  // omggif allocates for the frame's own stated size: it must lie within the (already judged) screen.
  if (f.x + f.width > g.width || f.y + f.height > g.height || g.width * g.height > maxPixels) throw corrupt();
  const pixels = new Uint8Array(g.width * g.height * 4);
  g.decodeAndBlitFrameRGBA(0, pixels);
  return { width: g.width, height: g.height, data: pixels };
}

/** The image's pixels (a GIF's first frame). Call only after the header's size passed the pixel cap. */
export async function decodeImage(format: ImageFormat, data: Uint8Array, maxPixels: number): Promise<Rgba> {
  try {
    switch (format) {
      case "png": {
        const { PNG } = await import("pngjs");
        const p = PNG.sync.read(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
        return { width: p.width, height: p.height, data: p.data };
      }
      case "jpeg": {
        const dec = (await import("@jsquash/jpeg/codec/dec/mozjpeg_dec.js")).default as Factory<Decoder>;
        return rgba((await instance(dec, "mozjpeg_dec.wasm")).decode(data, false));
      }
      case "webp": {
        const dec = (await import("@jsquash/webp/codec/dec/webp_dec.js")).default as Factory<Decoder>;
        return rgba((await instance(dec, "webp_dec.wasm")).decode(data));
      }
      case "gif":
        return await decodeGif(data, maxPixels);
    }
  } catch (err) {
    throw err instanceof ToolError ? err : corrupt();
  }
}

/** The formats an image is written back in: a GIF's first frame becomes a PNG (no palette to keep). */
export const OUTPUT_FORMAT: Record<ImageFormat, "png" | "jpeg" | "webp"> = {
  png: "png",
  jpeg: "jpeg",
  gif: "png",
  webp: "webp",
};

/** `img` encoded as `format`; `quality` (0-100) for the lossy ones. */
export async function encodeImage(
  format: "png" | "jpeg" | "webp",
  img: Rgba,
  quality: number,
): Promise<Uint8Array> {
  let out: Uint8Array | null;
  if (format === "png") {
    const { PNG } = await import("pngjs");
    const data = Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength);
    return PNG.sync.write(Object.assign(new PNG({ width: img.width, height: img.height }), { data }), {
      deflateLevel: 6,
    });
  }
  if (format === "jpeg") {
    const enc = (await import("@jsquash/jpeg/codec/enc/mozjpeg_enc.js")).default as Factory<Encoder>;
    const { defaultOptions } = await import("@jsquash/jpeg/meta.js");
    // Baseline with optimised Huffman tables: as small as mozjpeg's progressive default at 1,568 × 1,176,
    // in less than half its time (113 ms against 261 ms).
    out = (await instance(enc, "mozjpeg_enc.wasm")).encode(img.data, img.width, img.height, {
      ...defaultOptions,
      quality,
      progressive: false,
    });
  } else {
    const enc = (await import("@jsquash/webp/codec/enc/webp_enc_simd.js")).default as Factory<Encoder>;
    const { defaultOptions } = await import("@jsquash/webp/meta.js");
    out = (await instance(enc, "webp_enc_simd.wasm")).encode(img.data, img.width, img.height, {
      ...defaultOptions,
      quality,
    });
  }
  if (!out) throw new ToolError("invalid", { reason: "image_reencode" });
  return out;
}
