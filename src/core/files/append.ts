import { constants } from "node:fs";
import { ToolError } from "../errors.js";
import { printable } from "../paths.js";
import type { ResolvedPath } from "../workspace.js";
import { writeFileAtomic } from "./atomic-write.js";
import { openVerified } from "./safe-open.js";

/**
 * Appends text to an existing regular file, crash-safely (the whole file is rewritten through a temp file
 * and a rename, so a crash never leaves half an append). LF line breaks in `text` follow the file's own
 * style when the file uses CRLF. Throws ToolError `not_found` or `not_file`.
 */
export async function appendText(target: ResolvedPath, text: string): Promise<void> {
  if (!target.exists) throw new ToolError(`No such file: ${printable(target.requested)}`, "not_found");
  const fh = await openVerified(target, constants.O_RDONLY | constants.O_NONBLOCK);
  let current: Buffer;
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ToolError(`Not a file: ${printable(target.requested)}`, "not_file");
    current = await fh.readFile();
  } finally {
    await fh.close();
  }
  const firstLf = current.indexOf(0x0a);
  const crlf = firstLf > 0 && current[firstLf - 1] === 0x0d;
  const addition = Buffer.from(crlf ? text.replace(/\r?\n/g, "\r\n") : text, "utf8");
  await writeFileAtomic(target, Buffer.concat([current, addition]));
}
