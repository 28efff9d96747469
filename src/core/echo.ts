/**
 * How a client's input is echoed in a reply: escaped so a name cannot forge a line or drive a terminal, and
 * in messages clipped so a huge input is not sent back. No imports: errors and paths both use it.
 */

/** Characters that could start a new line or drive a terminal: C0, DEL, C1, Unicode line breaks, bidi controls. */
const LINE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const LINE_UNSAFE_ALL = new RegExp(LINE_UNSAFE.source, "g");

/**
 * A name or path made safe for one line of a text reply: a file named `evil\n[DIR] x` must not show as two
 * entries. Unsafe characters become `\xNN` / `\uNNNN`; structured fields keep the real name. Every
 * formatter that prints names uses this one function.
 */
export function escapeName(name: string): string {
  if (!LINE_UNSAFE.test(name)) return name;
  return name.replace(LINE_UNSAFE_ALL, (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
  });
}

/** The most characters of a client's input (path, pattern, name) any message echoes. */
const ECHO_MAX = 200;

/**
 * `text` (made safe by `safe` first) cut to `ECHO_MAX` characters, saying how long it was: the one clip of
 * inputs quoted in messages. Only the head is escaped, so a huge input costs no more than a short one.
 */
export function clipped(text: string, safe: (s: string) => string = (s) => s): string {
  const head = safe(text.slice(0, ECHO_MAX + 1));
  if (text.length <= ECHO_MAX && head.length <= ECHO_MAX) return head;
  const tail = `…(${text.length} chars)`;
  return head.slice(0, ECHO_MAX - tail.length) + tail;
}

/** A path (or any input) made safe to echo in a message: escaped as `escapeName` does, then `clipped`. */
export function printable(p: string): string {
  return clipped(p, escapeName);
}
