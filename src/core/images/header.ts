/**
 * An image's format and size read from its header alone, before anything is decoded: the size a decoder
 * would allocate for is judged (`IMAGE_LIMITS.maxPixels`) before any decoder sees the file.
 */

/** The formats mcpfs decodes and re-encodes. */
export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

export const MIME_OF: Record<ImageFormat, string> = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

const ascii = (b: Uint8Array, start: number, end: number) =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("latin1", start, end);

const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => (u16be(b, i) * 65536 + u16be(b, i + 2)) >>> 0;

/** The format the first bytes announce (PNG, JPEG, GIF, WebP), or undefined. */
export function imageFormat(b: Uint8Array): ImageFormat | undefined {
  if (b.length >= 8 && u32be(b, 0) === 0x89504e47 && u32be(b, 4) === 0x0d0a1a0a) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return "gif";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return "webp";
  return undefined;
}

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The first frame header's size, walking the marker segments; undefined when none comes before the scan. */
function jpegSize(b: Uint8Array): [number, number] | undefined {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan or end before a frame header
    const len = u16be(b, i + 2);
    if (SOF.has(marker)) return i + 9 <= b.length ? [u16be(b, i + 7), u16be(b, i + 5)] : undefined;
    i += 2 + len;
  }
  return undefined;
}

function webpSize(b: Uint8Array): [number, number] | undefined {
  if (b.length < 30) return undefined;
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8X") return [u24le(b, 24) + 1, u24le(b, 27) + 1];
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)
    return [u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff];
  return undefined;
}

/**
 * The format and size an image's header states, or undefined when the bytes are not one of the formats
 * mcpfs decodes or the header is cut short. Reads only the header: cost is independent of the claimed size.
 */
export function imageHeader(b: Uint8Array): ImageHeader | undefined {
  const format = imageFormat(b);
  let size: [number, number] | undefined;
  if (format === "png")
    size = b.length >= 24 && ascii(b, 12, 16) === "IHDR" ? [u32be(b, 16), u32be(b, 20)] : undefined;
  else if (format === "jpeg") size = jpegSize(b);
  else if (format === "gif") size = b.length >= 10 ? [u16le(b, 6), u16le(b, 8)] : undefined;
  else if (format === "webp") size = webpSize(b);
  if (format === undefined || size === undefined || size[0] === 0 || size[1] === 0) return undefined;
  return { format, width: size[0], height: size[1] };
}
