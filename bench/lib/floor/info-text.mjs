// The get_file_info reply both floor servers give: the official server's text, from one realpath and stat.
import fs from "node:fs";

export function infoReply(p) {
  const st = fs.statSync(fs.realpathSync.native(p));
  const text = [
    `size: ${st.size}`,
    `created: ${st.birthtime}`,
    `modified: ${st.mtime}`,
    `accessed: ${st.atime}`,
    `isDirectory: ${st.isDirectory()}`,
    `isFile: ${st.isFile()}`,
    `permissions: ${(st.mode & 0o777).toString(8)}`,
  ].join("\n");
  return { content: [{ type: "text", text }], structuredContent: { content: text } };
}

/** The noop tool's reply: as long as the 1.5 KB file the small reads read (27 lines of 56 bytes). */
export const NOOP_TEXT = "const greeting = 'hello world'; // a short line of code\n".repeat(27);
