#!/usr/bin/env node
// Functions stay short enough to read at once: no function in src/ spans more than MAX_SPAN lines, counted
// from its first line to its last (blank lines and comments inside count: it is what a reader scrolls).
// Every kind counts: declarations, expressions, arrow functions, methods, accessors and constructors; a
// function inside another is measured on its own and counts in its parent's span too. Biome's
// noExcessiveLinesPerFunction skips blank lines, so it measures less than this.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const MAX_SPAN = 80;
const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..");
const DIRS = ["src"];

function* files(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p);
    else if (/\.(ts|mts|cts)$/.test(e.name) && !e.name.endsWith(".d.ts") && !/\.test\.ts$/.test(e.name))
      yield p;
  }
}

function nameOf(node, sf) {
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(sf);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  return "(anonymous)";
}

const problems = [];
for (const dir of DIRS)
  for (const file of files(path.join(ROOT, dir))) {
    const text = fs.readFileSync(file, "utf8");
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const last = sf.getLineAndCharacterOfPosition(node.end).line;
        const span = last - first + 1;
        if (span > MAX_SPAN)
          problems.push(
            `${path.relative(ROOT, file)}:${first + 1}: ${nameOf(node, sf)} spans ${span} lines (max ${MAX_SPAN})`,
          );
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
if (problems.length > 0) {
  console.error(
    `${problems.join("\n")}\n\n${problems.length} function(s) too long (scripts/check-function-span.mjs)`,
  );
  process.exit(1);
}
