import path from "node:path";

/** Extensions whose content type is known; anything else is sniffed (NUL bytes → binary). */
const BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".html": "text/html",
  ".htm": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".cjs": "text/javascript",
  ".ts": "text/x-typescript",
  ".tsx": "text/x-typescript",
  ".py": "text/x-python",
  ".sh": "text/x-shellscript",
  ".json": "application/json",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".toml": "application/toml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
  ".mp4": "video/mp4",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".wasm": "application/wasm",
};

/** Text-like types that are not `text/*`. */
const TEXTUAL = new Set([
  "application/json",
  "application/xml",
  "application/yaml",
  "application/toml",
  "image/svg+xml",
]);

export function contentTypeByName(name: string): string | undefined {
  return BY_EXTENSION[path.extname(name).toLowerCase()];
}

export function isTextualType(type: string): boolean {
  return type.startsWith("text/") || TEXTUAL.has(type);
}

/** A sample with a NUL byte, or that is not valid UTF-8, is binary. */
export function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true;
  try {
    // `stream: true`: a multi-byte character cut at the end of the sample is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** The content type to serve: by extension when known, else text/plain or application/octet-stream by sniffing. */
export function contentTypeFor(name: string, sample: Buffer): { type: string; text: boolean } {
  const known = contentTypeByName(name);
  if (known) return { type: known, text: isTextualType(known) && !sample.includes(0) };
  return looksBinary(sample)
    ? { type: "application/octet-stream", text: false }
    : { type: "text/plain", text: true };
}
