import { TextCheck } from "../text/decode.js";
import { mimeByExtension } from "./mime-types.js";

/** Text-like types that are not `text/*`. */
const TEXTUAL = new Set([
  "application/json",
  "application/xml",
  "application/yaml",
  "application/toml",
  "image/svg+xml",
]);

export function contentTypeByName(name: string): string | undefined {
  return mimeByExtension(name);
}

export function isTextualType(type: string): boolean {
  return type.startsWith("text/") || TEXTUAL.has(type);
}

/** A sample with a NUL byte, or that is not valid UTF-8, is binary. */
export function looksBinary(sample: Buffer): boolean {
  if (sample.includes(0)) return true;
  // A multi-byte character cut at the end of the sample is not an error.
  return !new TextCheck().push(sample).ok(false);
}

/** The content type to serve: by extension when known, else text/plain or application/octet-stream by sniffing. */
export function contentTypeFor(name: string, sample: Buffer): { type: string; text: boolean } {
  const known = contentTypeByName(name);
  if (known) return { type: known, text: isTextualType(known) && !sample.includes(0) };
  return looksBinary(sample)
    ? { type: "application/octet-stream", text: false }
    : { type: "text/plain", text: true };
}
