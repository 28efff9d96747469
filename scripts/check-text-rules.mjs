#!/usr/bin/env node
// The one line model and decode policy (src/core/text/) as a lint rule: outside src/core/text, no source
// splits text on "\n" itself, reads lines with node:readline, or decodes bytes with a TextDecoder — each of
// those was once a second line model or a second decode policy. Use core/text: linesOf/splitLines for
// text, lfPieces for program output, LineReader for files, decodeText for bytes.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..");
const SRC = path.join(ROOT, "src");
const ALLOWED = path.join(SRC, "core", "text") + path.sep;
/** Files allowed one rule, each with why (a stale entry fails too). */
const EXCEPTIONS = {
  "src/core/documents/zip.ts":
    "decodes bytes itself: XML parts inside an Office container (UTF-8 by the format), never a file's own text",
};
const RULES = [
  // .split("\n"), .split('\n'), .split(`\n`), .split("\r\n"), .split(/\n/), .split(/\r?\n/), .split(/\r\n|\n/) ...
  [
    /\.split\(\s*(["'`])(\\r)?\\n\1\s*[,)]/,
    'splits text on "\\n": use linesOf/splitLines (files) or lfPieces (program output) from core/text',
  ],
  [
    /\.split\(\s*\/[^/\n]*\\n[^/\n]*\/[a-z]*\s*[,)]/,
    "splits text on a line-break pattern: use linesOf/splitLines from core/text",
  ],
  [
    /from\s+["'](node:)?readline(\/promises)?["']/,
    "reads lines with node:readline: use LineReader from core/text",
  ],
  [/new\s+TextDecoder\s*\(/, "decodes bytes itself: use decodeText from core/text (the one decode policy)"],
];

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    // A unit test beside its module is not the module's code: it may build its inputs any way it likes.
    else if (/\.(ts|mts|cts|js|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) yield p;
  }
}

const problems = [];
const used = new Set();
for (const file of files(SRC)) {
  if (file.startsWith(ALLOWED)) continue;
  const lines = fs.readFileSync(file, "utf8").split("\n");
  lines.forEach((line, i) => {
    for (const [re, why] of RULES) {
      if (!re.test(line)) continue;
      const rel = path.relative(ROOT, file).split(path.sep).join("/");
      if (EXCEPTIONS[rel]?.startsWith(why.split(":")[0])) {
        used.add(rel);
        continue;
      }
      problems.push(`${rel}:${i + 1}: ${why}\n    ${line.trim()}`);
    }
  });
}
for (const rel of Object.keys(EXCEPTIONS))
  if (!used.has(rel))
    problems.push(`${rel}: listed as an exception but breaks no rule: remove it from EXCEPTIONS`);
if (problems.length > 0) {
  console.error(
    `${problems.join("\n")}\n\n${problems.length} text-rule violation(s) (scripts/check-text-rules.mjs)`,
  );
  process.exit(1);
}
