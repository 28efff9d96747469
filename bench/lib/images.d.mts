export function pixels(width: number, height: number, opts?: { alpha?: boolean }): Uint8Array;
export function makePng(width: number, height: number, opts?: { alpha?: boolean }): Buffer;
export function makeJpeg(width: number, height: number, quality?: number): Promise<Buffer>;
export function makeWebp(width: number, height: number, quality?: number): Promise<Buffer>;
export function makeGif(width: number, height: number, frames?: number): Buffer;
export function makePngBomb(width?: number, height?: number): Buffer;
export function makeJpegBomb(width?: number, height?: number): Buffer;
export function makeCorruptPng(): Buffer;
export function imageSize(
  bytes: Uint8Array,
): Promise<{ format: "png" | "jpeg" | "webp" | "gif"; width: number; height: number }>;
