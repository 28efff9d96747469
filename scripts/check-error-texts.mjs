#!/usr/bin/env node
// Errors as data (`ToolError(kind, detail)`): the core says what happened, each surface words it once in
// its table (src/surfaces/wording.ts, src/surfaces/*/policy.ts). A ToolError built with a message of its own
// (`new ToolError("text", kind)`, the older form) is counted here; the count may only go down: a new one
// fails this check, and so does a removed one until LEFT below is lowered to match.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..");
const SRC = path.join(ROOT, "src");
/** ToolErrors still built with a message of their own (the older form), to be turned into data. */
const BASELINE = 0;
const TABLES = new Set(["src/surfaces/wording.ts"]);

/** The kinds, read from the one list (src/core/errors.ts), so the check needs no build. */
function kinds() {
  const text = fs.readFileSync(path.join(SRC, "core", "errors.ts"), "utf8");
  const list = /(?:export )?const ERROR_KINDS = \[([\s\S]*?)\] as const/.exec(text);
  if (!list) throw new Error("ERROR_KINDS not found in src/core/errors.ts");
  return [...list[1].matchAll(/^\s*"([a-z0-9_]+)",/gm)].map((m) => m[1]);
}

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (/\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)) yield p;
  }
}

// A kind spelled out, or one passed on (a variable) with its detail object: `new ToolError(kind, { ... })`.
const data = new RegExp(`^\\s*(?:"(?:${kinds().join("|")})"\\s*,|[A-Za-z_.]+\\s*,\\s*\\{)`);
const found = [];
for (const file of files(SRC)) {
  const rel = path.relative(ROOT, file).split(path.sep).join("/");
  if (TABLES.has(rel)) continue;
  const text = fs.readFileSync(file, "utf8");
  for (const m of text.matchAll(/new ToolError\(/g)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 200);
    if (data.test(rest)) continue;
    const line = text.slice(0, m.index).split("\n").length;
    found.push(`${rel}:${line}`);
  }
}
const allowed = BASELINE;
if (found.length > allowed) {
  console.error(
    `check-error-texts: ${found.length} ToolErrors are built with a message of their own (at most ${allowed}).\n` +
      "Build a new one as data — new ToolError(kind, { reason, path, ... }) — and word it in src/surfaces/wording.ts.",
  );
  process.exit(1);
}
if (found.length < allowed) {
  console.error(
    `check-error-texts: ${found.length} left (fewer than ${allowed}): lower BASELINE to ${found.length}.`,
  );
  process.exit(1);
}
if (process.argv.includes("--list")) console.log(found.join("\n"));
