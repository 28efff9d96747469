/** Lines longer than this are cut around the match, so one minified file cannot flood a reply. */
const MAX_LINE_CHARS = 400;
const LEAD = 100;

/** Cuts a long line to a window around `col` (the match start), marking what was left out. */
export function cutLine(text: string, col = 0): string {
  if (text.length <= MAX_LINE_CHARS) return text;
  const from = Math.max(0, Math.min(col - LEAD, text.length - MAX_LINE_CHARS));
  const to = from + MAX_LINE_CHARS;
  const head = from > 0 ? `[…${from} chars] ` : "";
  const tail = to < text.length ? ` […${text.length - to} more chars]` : "";
  return `${head}${text.slice(from, to)}${tail}`;
}
