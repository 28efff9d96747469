import { ToolError } from "../errors.js";
import { decodingFor } from "../text/decode.js";
import { grow, type SheetRead } from "./sheet-model.js";

/** The delimiter of a .csv: the one of `,` `;` tab most frequent on its first line (.tsv: tab). */
function delimiterOf(text: string, ext: string): string {
  if (ext === ".tsv") return "\t";
  const first = text.slice(0, text.indexOf("\n") >>> 0 || text.length);
  let best = ",";
  let most = 0;
  for (const d of [",", ";", "\t"]) {
    const n = first.split(d).length - 1;
    if (n > most) [best, most] = [d, n];
  }
  return best;
}

/**
 * A CSV file (RFC 4180 quoting) as one sheet, its text decoded by the reads' decode policy: its BOM's
 * encoding, else UTF-8, else `encoding` (the caller's or `--default-encoding`); refused as `not_utf8` else.
 */
export async function readCsv(
  data: Uint8Array,
  ext: string,
  rows: { first: number; last: number },
  encoding: string | undefined,
): Promise<SheetRead> {
  const decoding = await decodingFor(data.subarray(0, 4), "", encoding);
  let text: string;
  try {
    text = decoding.decode(data).replace(/^\uFEFF/, "");
  } catch {
    // As data (the pool adds the path): the main thread words it with the file's likely encodings.
    throw decoding.codec.name === "utf-8"
      ? new ToolError("not_utf8", { reason: "encoding_needed" })
      : new ToolError("not_utf8", { reason: "invalid_bytes", name: decoding.codec.name });
  }
  const d = delimiterOf(text, ext);
  const cells: SheetRead["cells"] = new Map();
  let used: SheetRead["used"];
  let row = new Map<number, string>();
  let r = 1;
  let c = 0;
  let i = 0;
  const put = (value: string) => {
    if (value !== "") {
      row.set(c, value);
      used = grow(used, c, r);
    }
    c++;
  };
  while (i < text.length) {
    let value = "";
    if (text[i] === '"') {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          value += text.slice(j);
          j = text.length;
          break;
        }
        value += text.slice(j, q);
        if (text[q + 1] === '"') {
          value += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      i = j;
    }
    let end = i;
    while (end < text.length && text[end] !== d && text[end] !== "\n" && text[end] !== "\r") end++;
    value += text.slice(i, end);
    put(value);
    i = end;
    if (text[i] === d) {
      i++;
      if (i >= text.length) put("");
      continue;
    }
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    if (row.size > 0 && r >= rows.first && r <= rows.last) cells.set(r, row);
    row = new Map();
    r++;
    c = 0;
  }
  if (row.size > 0 && r >= rows.first && r <= rows.last) cells.set(r, row);
  return { names: ["1"], name: "1", cells, used };
}
