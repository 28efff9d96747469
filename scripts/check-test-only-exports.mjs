#!/usr/bin/env node
// No export exists only for tests: an export of src/ that production code never imports (knip --production,
// with exports used inside their own file counted as unused) must not be imported by test/ or bench/ either.
// Such an export ships in the bundle and tests a private step instead of the public function; make the test
// call the public function, or drop the export. KNOWN lists the ones that still need doing, each with why; a
// stale entry fails too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

const ROOT = path.join(path.dirname(new URL(import.meta.url).pathname), "..");
/** `<src path>#<name>` -> why it is still exported (what should replace the test's use). */
const KNOWN = {
  // Errors as data (item 3): the wording tests walk every case of the closed lists; the edit engine's and the
  // decode policy's errors are still built by name in their unit tests.
  "src/core/errors.ts#ERROR_REASONS":
    "error-wording walks every case: read them from wordError's table instead",
  "src/surfaces/wording.ts#OFFICIAL_WORDS": "error-wording walks the table: test through wordError",
  "src/core/edit/edit.ts#EditError": "edit-engine matches the class: test through applyEdits' thrown kind",
  // Tiers (item 6): e2e tests import src/ instead of the installed package.
  "src/surfaces/catalog.ts#leanSchema":
    "e2e catalog test rebuilds the catalog: check the bundle's catalog instead",
  "src/surfaces/index.ts#surfaceTools":
    "e2e catalog test rebuilds the catalog: check the bundle's catalog instead",
  "src/server/register-tools.ts#exposedTools": "e2e tests list tools from src/: ask the server (tools/list)",
  "src/core/github/target.ts#apiEndpointFor": "e2e token-host test: go through the GitHub client's request",
  // Errors as data (item 3): the wording tables are checked against the kinds directly.
  "src/core/errors.ts#ERROR_KINDS": "wording test walks every kind: the tables' Record<ErrorKind> type could",
  "src/surfaces/filesystem/policy.ts#filesystemWording": "wording test: call the policy's errorText",
  "src/surfaces/workspace/policy.ts#workspaceWording": "wording test: call the policy's errorText",
  // Private steps tested directly (move the cases to the public function named).
  "src/core/paths.ts#screenWindowsPath": "case-fold test: through screenRequestedPath",
  "src/core/mutate/transaction.ts#sweepStaleTemps": "crash tests: through Journal.recover / commitChanges",
  "src/core/budget.ts#FINAL_CUT_NOTE": "budget test matches the note's text: match the reply instead",
  "src/core/git/config-trust.ts#namesProgram": "config-trust test: through the repository gate",
  "src/core/deny.ts#SECRETS_PRESET": "deny test: through the --deny secrets preset's rules",
  "src/core/edit/diff.ts#trimmedPatch": "diff-trimmed test: through unifiedDiff / gitStyleDiff",
  "src/core/search/lines.ts#MAX_LINE_CHARS": "engine-grep test sizes a long line by it: through cutLine",
  "src/core/walk.ts#SKIP": "engine-walk test: through walk's include option",
  "src/core/search/glob-match.ts#MAX_GLOB_LENGTH":
    "glob-match test sizes a glob by it: through checkGlobCount",
  "src/core/edit/patch.ts#applyHunks": "patch test: through planPatch",
  "src/core/checks/file-sizes.ts#countTextLines": "text-model test: through the file-size check",
  "src/surfaces/filesystem/directory-tree.ts#capNote": "tree-note test: through the directory_tree tool",
};

// knip's own configuration, with exports used only in their own file counted as unused.
const config = JSON.parse(fs.readFileSync(path.join(ROOT, "knip.json"), "utf8"));
config.ignoreExportsUsedInFile = false;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mcpfs-knip-"));
const configFile = path.join(tmp, "knip.json");
fs.writeFileSync(configFile, JSON.stringify(config));
let report;
try {
  const out = execFileSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules/knip/bin/knip.js"),
      "--production",
      "--include",
      "exports,types",
      "--reporter",
      "json",
      "--no-exit-code",
      "--config",
      configFile,
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  report = JSON.parse(out);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
/** src file -> names production never imports. */
const unused = new Map();
for (const f of report.issues)
  for (const kind of ["exports", "types"])
    for (const e of Object.values(f[kind] ?? {})) {
      const names = unused.get(f.file) ?? new Set();
      names.add(e.name);
      unused.set(f.file, names);
    }

function* files(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "fixtures") yield* files(p);
    } else if (/\.(ts|mts|js|mjs)$/.test(e.name)) yield p;
  }
}
const testFiles = [...files(path.join(ROOT, "test")), ...files(path.join(ROOT, "bench"))];
for (const f of files(path.join(ROOT, "src"))) if (/\.test\.ts$/.test(f)) testFiles.push(f);

/** The src file a specifier names (`.js` written for a `.ts` source), relative to the root. */
function target(spec, from) {
  if (!spec.startsWith(".")) return undefined;
  const abs = path.resolve(path.dirname(from), spec).replace(/\.js$/, ".ts");
  return path.relative(ROOT, abs).split(path.sep).join("/");
}

/** Names a test file takes from src modules: static imports, `await import()` destructuring, `m.name`. */
function importsOf(file) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const mod = target(node.moduleSpecifier.text, file);
      const b = node.importClause?.namedBindings;
      if (mod && b && ts.isNamedImports(b))
        for (const el of b.elements) found.push([mod, (el.propertyName ?? el.name).text]);
      if (mod && b && ts.isNamespaceImport(b)) found.push([mod, `*${b.name.text}`]);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const mod = arg && ts.isStringLiteral(arg) ? target(arg.text, file) : undefined;
      let decl = node.parent;
      while (decl && (ts.isAwaitExpression(decl) || ts.isParenthesizedExpression(decl))) decl = decl.parent;
      if (mod && decl && ts.isVariableDeclaration(decl) && ts.isObjectBindingPattern(decl.name))
        for (const el of decl.name.elements) found.push([mod, (el.propertyName ?? el.name).getText(sf)]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const problems = [];
const seen = new Set();
for (const file of testFiles)
  for (const [mod, name] of importsOf(file)) {
    if (!unused.get(mod)?.has(name)) continue;
    const key = `${mod}#${name}`;
    seen.add(key);
    if (KNOWN[key]) continue;
    problems.push(
      `${key}: exported only for ${path.relative(ROOT, file)} (test the public function, or drop the export)`,
    );
  }
for (const key of Object.keys(KNOWN))
  if (!seen.has(key)) problems.push(`${key}: listed in KNOWN but no longer a test-only export: remove it`);
if (problems.length > 0) {
  const unique = [...new Set(problems)];
  console.error(`${unique.join("\n")}\n\n${unique.length} problem(s) (scripts/check-test-only-exports.mjs)`);
  process.exit(1);
}
