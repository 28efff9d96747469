// The bundle check run by scripts/bundle.mjs after every build: the installed package has only its
// `dependencies` (npm install --omit=dev), so a module the bundle loads at run time — `require("x")`,
// `import("x")`, or through `createRequire(...)` — must be a Node builtin, a file shipped beside the bundle,
// or a runtime dependency. Anything else works in the repository (its node_modules is reachable) and fails
// with MODULE_NOT_FOUND for users, as the `ignore` package once did.
import { isBuiltin } from "node:module";

/** A call of `name` with one string literal, not itself inside a string (ajv's generated-code templates). */
const call = (name) => new RegExp(`(?<![\\w$.'"\`])${name}\\s*\\(\\s*(["'\`])([^"'\`]+)\\1\\s*\\)`, "g");

/**
 * Names bound to a `createRequire(...)` result (not to a member of it: `r = createRequire(u).resolve(x)` binds
 * a path, and a minifier may reuse that short name for an unrelated function), including through a minifier's alias of createRequire
 * itself (`{createRequire:kY}=require("module")`, then `r=kY(url)`).
 */
function createdRequires(text) {
  const makers = new Set(["createRequire"]);
  for (const m of text.matchAll(/createRequire\s*:\s*([\w$]+)/g)) makers.add(m[1]);
  for (const m of text.matchAll(/([\w$]+)\s*=\s*(?:[\w$]+\.)?createRequire\b(?!\s*\()/g)) makers.add(m[1]);
  const names = new Set();
  for (const maker of makers) {
    const made = new RegExp(
      `([\\w$]+)\\s*=\\s*(?:\\(0,\\s*)?(?:[\\w$]+\\.)?${escapeName(maker)}\\)?\\s*\\([^()]*\\)(?!\\s*\\.)`,
      "g",
    );
    for (const m of text.matchAll(made)) names.add(m[1]);
  }
  return { makers, names };
}

const escapeName = (s) => s.replace(/[$]/g, "\\$");

/** Every module name the text loads with a literal: require, import(), createRequire(...)(...). */
export function loadedModules(text) {
  const found = new Set();
  for (const name of ["require", "import"]) for (const m of text.matchAll(call(name))) found.add(m[2]);
  const { makers, names } = createdRequires(text);
  for (const maker of makers) {
    // createRequire(url)("x"), also as (0,m.createRequire)(url)("x")
    const direct = new RegExp(
      `${escapeName(maker)}\\)?\\s*\\([^()]*\\)\\s*\\(\\s*(["'\`])([^"'\`]+)\\1`,
      "g",
    );
    for (const m of text.matchAll(direct)) found.add(m[2]);
  }
  for (const n of names) for (const m of text.matchAll(call(escapeName(n)))) found.add(m[2]);
  return [...found];
}

/** The package a module name is in (`@scope/name/sub` → `@scope/name`), or undefined for a relative one. */
function packageOf(spec) {
  if (spec.startsWith(".") || spec.startsWith("/")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The modules `text` loads that an install without devDependencies lacks: not builtins, not in
 * `dependencies`, not one of `files` (the relative names shipped beside the bundle).
 */
export function unbundledImports(text, dependencies, files = []) {
  return loadedModules(text).filter((spec) => {
    if (isBuiltin(spec)) return false;
    const pkg = packageOf(spec);
    if (pkg === undefined) return !files.includes(spec.replace(/^\.\//, ""));
    return !Object.hasOwn(dependencies, pkg);
  });
}
