import { type Unzipped, unzipSync } from "fflate";
import { DocError } from "./doc-error.js";

/**
 * The entries of a zip container that `wanted` names, inflated. Each entry is inflated into a buffer of the
 * size its header declares (fflate writes nothing past it), and those sizes together must stay under
 * `maxInflated`: a zip bomb is refused before anything is inflated.
 */
export function unzipBounded(data: Uint8Array, wanted: (name: string) => boolean, maxInflated: number) {
  let total = 0;
  let files: Unzipped;
  try {
    files = unzipSync(data, {
      filter(f) {
        if (!wanted(f.name)) return false;
        total += f.originalSize;
        if (total > maxInflated)
          throw new DocError("too_large", `it inflates to more than ${maxInflated} bytes (a zip bomb?)`);
        return true;
      },
    });
  } catch (err) {
    if (err instanceof DocError) throw err;
    throw new DocError("invalid", "it is not a valid zip container (corrupt or not an Office file)");
  }
  return new Map(Object.entries(files));
}

const decoder = new TextDecoder();

/** An entry's text (UTF-8 XML), or undefined when the container has no such entry. */
export function entryText(files: Map<string, Uint8Array>, name: string): string | undefined {
  const bytes = files.get(name);
  return bytes === undefined ? undefined : decoder.decode(bytes);
}
