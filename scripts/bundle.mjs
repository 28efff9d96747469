// Bundles the compiled server (dist/cli/main.js) into dist/bundle/mcpfs-main.cjs: one file to load instead
// of hundreds of modules, which is most of cold-start time; dist/bundle/mcpfs.js (scripts/bin.mjs) loads it,
// with Node's module compile cache where Node has one. Only @vscode/ripgrep stays external: it locates its
// platform's binary package relative to itself, and it is the package's one runtime dependency.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { unbundledImports } from "./bundle-imports.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));

/** zod's namespace re-exports every locale (~250 KiB) at start-up; mcpfs only uses the English messages. */
const startupDiet = {
  name: "startup-diet",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(here, "shims/zod-locales.mjs") }
        : undefined,
    );
  },
};

/**
 * The tool catalogs (names, texts, JSON Schemas) computed now from the compiled surfaces, so a bundled start
 * answers `tools/list` without loading the surface or building its zod schemas (see src/surfaces/catalog.ts).
 */
async function catalogs() {
  const { catalogOf } = await import("../dist/surfaces/catalog.js");
  const { filesystemTools } = await import("../dist/surfaces/filesystem/index.js");
  const { workspaceTools } = await import("../dist/surfaces/workspace/index.js");
  return { filesystem: catalogOf(filesystemTools), workspace: catalogOf(workspaceTools) };
}

/**
 * jsonc-parser's "main" is a UMD build whose factory requires its own files at run time (esbuild cannot
 * follow those); its ES module build bundles like any other.
 */
const esmBuilds = {
  name: "esm-builds",
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, () => ({
      path: path.join(here, "../node_modules/jsonc-parser/lib/esm/main.js"),
    }));
  },
};

/**
 * Libraries mcpfs only loads with a literal `import()`, on first use (the structured edits' parsers, the
 * notebook schema check, the file watcher): each is a file of its own beside the bundle
 * (`vendor-<name>.cjs`, required on that first use), so a start neither reads nor compiles them.
 */
const LAZY_VENDORS = ["yaml", "@decimalturn/toml-patch", "jsonc-parser", "ajv", "chokidar"];
const vendorFile = (name) => `vendor-${name.replace(/^@/, "").replaceAll("/", "-")}.cjs`;
const lazyVendors = {
  name: "lazy-vendors",
  setup(b) {
    // The import() resolves to a stub that requires the file beside the bundle: the SDK-style interop
    // (`__toESM(require(...))`) keeps the library's named exports, which Node's import() of a .cjs would not.
    b.onResolve({ filter: /^[@\w]/ }, (args) =>
      args.kind === "dynamic-import" && LAZY_VENDORS.includes(args.path)
        ? { path: args.path, namespace: "lazy-vendor" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-vendor" }, (args) => ({
      contents: `module.exports = require("./${vendorFile(args.path)}");`,
      loader: "js",
    }));
    b.onResolve({ filter: /^\.\/vendor-[\w-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * Libraries a start never needs, each in a file of its own beside the bundle, loaded by the module that
 * imports them with `import()` on first need, so start-up never parses them: iconv-lite's and chardet's
 * tables (~0.5 MiB; core/text/decode.ts, only for a file that is not UTF-8) and Octokit (~150 KiB;
 * core/github/client.ts, on the first GitHub call).
 */
const APART = { "./codec-libs.js": "mcpfs-codecs", "./octokit-libs.js": "mcpfs-github" };
const librariesApart = {
  name: "libraries-apart",
  setup(b) {
    b.onResolve({ filter: /^\.\/(codec|octokit)-libs\.js$/ }, (args) => ({
      path: `./${APART[args.path]}.cjs`,
      external: true,
    }));
  },
};

const prebuilt = {
  name: "prebuilt-catalogs",
  setup(b) {
    // A JSON string per surface, parsed only for the surface a run selects (JSON.parse beats a JS literal).
    b.onLoad({ filter: /[\\/]dist[\\/]surfaces[\\/]prebuilt\.js$/ }, async () => {
      const getters = Object.entries(await catalogs()).map(
        ([surface, entries]) =>
          `get ${surface}() { return JSON.parse(${JSON.stringify(JSON.stringify(entries))}); }`,
      );
      return { contents: `export const prebuiltCatalogs = { ${getters.join(", ")} };`, loader: "js" };
    });
  },
};

rmSync("dist/bundle", { recursive: true, force: true });

/** What every bundled file shares: CommonJS for Node 20, minified, `import.meta.url` its own file's URL. */
const common = {
  outdir: "dist/bundle",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__mcpfsUrl" },
  banner: { js: "\"use strict\";var __mcpfsUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
  legalComments: "none",
  minify: true,
};

/**
 * A worker thread's script as its own file beside the bundle (`dist/bundle/<name>.cjs`): started only when
 * its work is first asked for, so its code and dependencies stay out of the server's start-up.
 */
const workerBuild = (name, entry) => build({ entryPoints: { [name]: entry }, ...common });

// One CommonJS file: loaded with require, it compiles once (and is cached by Node 22's compile cache).
// Modules a run may never need stay lazily initialised inside it (esbuild wraps each one).
await build({
  entryPoints: { "mcpfs-main": "dist/cli/main.js" },
  ...common,
  external: ["@vscode/ripgrep"],
  plugins: [startupDiet, lazyVendors, esmBuilds, prebuilt, librariesApart],
  keepNames: false,
});

// The lazily loaded libraries, one file each (see lazyVendors).
{
  const { outdir: _, outExtension: __, ...one } = common;
  for (const name of LAZY_VENDORS)
    await build({
      ...one,
      stdin: {
        contents: `module.exports = require(${JSON.stringify(name)});`,
        resolveDir: here,
        loader: "js",
      },
      outfile: path.join("dist", "bundle", vendorFile(name)),
      plugins: [esmBuilds],
    });
}

// The encoding libraries and Octokit, loaded by the main bundle on first need (see librariesApart).
await workerBuild("mcpfs-codecs", "dist/core/text/codec-libs.js");
await workerBuild("mcpfs-github", "dist/core/github/octokit-libs.js");

// The regex admission worker (core/search/regex-admit.ts).
await workerBuild("regex-worker", "dist/core/search/regex-worker.js");

copyFileSync(path.join(here, "bin.mjs"), path.join("dist", "bundle", "mcpfs.js"));

// The code tools' parser worker (src/core/code/worker.ts) is its own file, started on the first parse; the
// tree-sitter runtime's WebAssembly and the grammars it loads are copied beside it (`grammars/`), each from
// the package src/core/code/languages.ts names, so nothing is fetched at run time and the installed package
// depends on none of those packages.
await workerBuild("mcpfs-code-worker", "dist/core/code/worker.js");
{
  const { GRAMMAR_PACKAGES, RUNTIME_PACKAGE } = await import("../dist/core/code/languages.js");
  const to = path.join("dist", "bundle", "grammars");
  mkdirSync(to, { recursive: true });
  const files = [
    [RUNTIME_PACKAGE, "tree-sitter.wasm"],
    ...Object.entries(GRAMMAR_PACKAGES).map(([g, pkg]) => [pkg, `tree-sitter-${g}.wasm`]),
  ];
  for (const [pkg, name] of files) copyFileSync(path.join("node_modules", pkg, name), path.join(to, name));
}

/**
 * pdf.js looks for the native @napi-rs/canvas through createRequire (to render; mcpfs reads text only):
 * that lookup is replaced by its failure, which pdf.js already handles, so nothing native is ever loaded.
 * Its browser-only CDN worker wrapper (an import in a string) is emptied: it reads to the bundle check as a
 * run-time import, and Node never takes that path.
 * fflate's Node entry loads worker_threads through createRequire for its async API; only its synchronous
 * API is used, which the plain entry has too.
 */
const documentDiet = {
  name: "document-diet",
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, () => ({
      path: path.resolve("node_modules", "fflate", "esm", "browser.js"),
    }));
    b.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf\.mjs$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8")
        .replaceAll(
          'process.getBuiltinModule("module").createRequire(import.meta.url)',
          '(() => { throw new Error("text only"); })()',
        )
        .replace('`await import("$' + '{url}");`', '""'),
      loader: "js",
    }));
  },
};

// The document worker (src/core/documents/worker.ts): pdf.js, mammoth and the zip reader in a file of its own,
// started on the first read_document, so neither start-up nor the main bundle carries them.
await build({
  entryPoints: { "mcpfs-doc-worker": "dist/core/documents/worker.js" },
  plugins: [documentDiet, librariesApart],
  outdir: "dist/bundle",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { "import.meta.url": "__mcpfsUrl" },
  banner: { js: "\"use strict\";var __mcpfsUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
  legalComments: "none",
  minify: true,
});

// The image codecs' WASM files (src/core/images/codecs.ts) beside the document worker that runs them.
{
  const { CODEC_WASM } = await import("../dist/core/images/codecs.js");
  const to = path.join("dist", "bundle", "codecs");
  mkdirSync(to, { recursive: true });
  for (const [name, dir] of Object.entries(CODEC_WASM))
    copyFileSync(path.join("node_modules", dir, name), path.join(to, name));
}

// The installed package has only its dependencies: a module loaded at run time that is neither bundled, nor a
// builtin, nor a dependency fails for users only (see bundle-imports.mjs).
const { dependencies = {} } = JSON.parse(readFileSync(path.join(here, "..", "package.json"), "utf8"));
const shipped = readdirSync(path.join("dist", "bundle"));
for (const file of shipped.filter((f) => /\.c?js$/.test(f))) {
  const missing = unbundledImports(
    readFileSync(path.join("dist", "bundle", file), "utf8"),
    dependencies,
    shipped,
  );
  if (missing.length > 0) {
    console.error(
      `dist/bundle/${file} loads ${missing.join(", ")} at run time, which the installed package lacks: ` +
        "import it statically (or with a literal import()) so esbuild bundles it, or make it a dependency.",
    );
    process.exit(1);
  }
}
