/** Cuts a reply to the server's output budget (in UTF-8 bytes) with a note, never mid-character. */
export function boundReply(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return text;
  const note = `\n[output cut at ${maxBytes} bytes; narrow the request or lower max_lines]`;
  const buf = Buffer.from(text, "utf8").subarray(0, Math.max(0, maxBytes - Buffer.byteLength(note)));
  return buf.toString("utf8").replace(/\uFFFD$/, "") + note;
}
