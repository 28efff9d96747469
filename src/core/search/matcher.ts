import { RE2JS } from "re2js";
import { ToolError } from "../errors.js";
import { clipped } from "../paths.js";

/** How the js engine matches a pattern: a cheap filter over a block of lines, then the column in one line. */
export interface Matcher {
  /** Whether a block of whole lines may hold a match (a cheap filter before splitting lines). */
  region(buf: Buffer, text: () => string): boolean;
  /** Column of the first match in one line, or -1. */
  line(s: string): number;
}

const REGEX_META = /[\\^$.|?*+()[\]{}]/;

/** @throws ToolError for a pattern RE2 cannot compile. */
export function compileMatcher(pattern: string, literal: boolean, caseSensitive: boolean): Matcher {
  if (literal || !REGEX_META.test(pattern)) {
    if (caseSensitive) {
      const bytes = Buffer.from(pattern);
      return { region: (b) => b.indexOf(bytes) !== -1, line: (s) => s.indexOf(pattern) };
    }
    // An escaped literal cannot backtrack, so the native engine is safe here.
    const re = new RegExp(pattern.replace(/[\\^$.|?*+()[\]{}/-]/g, "\\$&"), "iu");
    return { region: (_b, text) => re.test(text()), line: (s) => s.search(re) };
  }
  // User regexes run on RE2 (linear time): a pattern like (a+)+$ cannot hang the server.
  const flags = caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE;
  let one: RE2JS;
  let many: RE2JS;
  try {
    one = RE2JS.compile(pattern, flags);
    many = RE2JS.compile(pattern, flags | RE2JS.MULTILINE);
  } catch (err) {
    throw new ToolError("invalid", { reason: "regex_invalid", cause: clipped((err as Error).message) });
  }
  return {
    region: (_b, text) => {
      const t = text();
      return many.matcher(t.includes("\r") ? t.replace(/\r\n/g, "\n") : t).find();
    },
    line: (s) => {
      const m = one.matcher(s);
      return m.find() ? m.start() : -1;
    },
  };
}
