import { ToolError } from "../errors.js";
import { openVerified } from "../fs/safe-open.js";
import { readBytes } from "../text/reader.js";
import { wholeText } from "../text/shapes.js";
import type { ResolvedPath } from "../workspace.js";
import { contentTypeFor } from "./content-type.js";

export type ResourceBody =
  | { kind: "text"; text: string; mimeType: string; size: number; truncated: boolean }
  | { kind: "blob"; base64: string; mimeType: string; size: number }
  | { kind: "directory" };

const SNIFF_BYTES = 8192;

/**
 * Reads a file for `resources/read`: text (cut to `budget` bytes) or base64 blob by content type.
 * A blob whose base64 would exceed the budget is refused rather than cut (a partial binary is useless).
 */
export async function readResourceBody(target: ResolvedPath, budget: number): Promise<ResourceBody> {
  const fh = await openVerified(target);
  try {
    const st = await fh.stat();
    if (st.isDirectory()) return { kind: "directory" };
    if (!st.isFile()) throw new ToolError("not_file", { reason: "not_regular", path: target.requested });
    const sample = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
    const { bytesRead } = await fh.read(sample, 0, sample.length, 0);
    const type = contentTypeFor(target.real, sample.subarray(0, bytesRead));
    if (type.text) {
      const r = await wholeText(fh, target.requested, budget, st.size);
      return { kind: "text", text: r.text, mimeType: type.type, size: r.size, truncated: r.truncated };
    }
    const maxRaw = Math.floor((budget * 3) / 4);
    if (st.size > maxRaw)
      throw new ToolError("too_large", {
        reason: "resource_blob",
        path: target.requested,
        actual: st.size,
        limit: maxRaw,
      });
    // At most the size checked above, even if the file grew meanwhile.
    const bytes = await readBytes(fh, st.size, st.size);
    return { kind: "blob", base64: bytes.toString("base64"), mimeType: type.type, size: bytes.length };
  } finally {
    await fh.close();
  }
}
