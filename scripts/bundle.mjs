// Bundles the compiled server (dist/cli/main.js) into dist/bundle/: one file to load instead of hundreds
// of modules, which is most of cold-start time. Rarely used parts (HTTP, the workspace surface, grep
// engines) stay in lazily loaded chunks. Packages that locate files relative to themselves stay external.
import { rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist/bundle", { recursive: true, force: true });

await build({
  entryPoints: { mcpfs: "dist/cli/main.js" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["@vscode/ripgrep", "chokidar"],
  // CommonJS dependencies inside the ESM bundle still call require().
  banner: {
    js: "import { createRequire as __mcpfsCreateRequire } from 'node:module'; const require = __mcpfsCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
  legalComments: "none",
  minify: true,
  keepNames: false,
});
