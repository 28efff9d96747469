// Deterministic bench fixtures, generated once into bench/fixtures and reused while the stamp matches.
import fs from "node:fs";
import path from "node:path";
import { makeFolderTree } from "./folder-tree.mjs";

export const FIXTURE_VERSION = "mcpfs-bench-fixtures-v1";
export const NEEDLE = "MCPFS_NEEDLE_LITERAL_7Q";

/** Small seeded PRNG (mulberry32): the same fixtures on every machine. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "const let function return import export from async await value index result error string number boolean array object map set filter reduce config server client request response handler path file directory tree search match line buffer stream".split(
    " ",
  );

function text(rand, lines, needle) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    const n = 3 + Math.floor(rand() * 9);
    const ws = [];
    for (let k = 0; k < n; k++) ws.push(WORDS[Math.floor(rand() * WORDS.length)]);
    out.push(`${"  ".repeat(Math.floor(rand() * 3))}${ws.join(" ")};`);
  }
  if (needle) out.splice(Math.floor(rand() * out.length), 0, `// ${NEEDLE} marker`);
  return `${out.join("\n")}\n`;
}

function write(p, content) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
}

/**
 * The monorepo: ~100,000 files. node_modules (60,000 files) and dist/ are gitignored, .git holds ~5,000
 * object files, packages carry nested .gitignores; ~1% of the searchable files hold NEEDLE.
 */
function makeTree(dir) {
  const rand = rng(42);
  let files = 0;
  const put = (rel, content) => {
    write(path.join(dir, rel), content);
    files++;
  };
  put(".gitignore", "node_modules/\ndist/\n*.log\ncoverage/\n");
  put("package.json", '{ "name": "bench-monorepo", "private": true }\n');
  put("tsconfig.json", '{ "compilerOptions": { "strict": true } }\n');
  put("README.md", text(rand, 40, false));
  put("build.log", "log\n");
  // .git: HEAD, config, refs and ~5,000 loose objects.
  put(".git/HEAD", "ref: refs/heads/main\n");
  put(".git/config", "[core]\n\trepositoryformatversion = 0\n");
  put(".git/info/exclude", "*.local\n");
  for (let i = 0; i < 4997; i++) {
    const h =
      Math.floor(rand() * 2 ** 32)
        .toString(16)
        .padStart(8, "0") + i.toString(16).padStart(8, "0");
    put(`.git/objects/${h.slice(0, 2)}/${h.slice(2)}`, h);
  }
  // node_modules: 600 packages × 100 files.
  for (let p = 0; p < 600; p++) {
    const pkg = `node_modules/dep-${p}`;
    put(`${pkg}/package.json`, `{ "name": "dep-${p}", "version": "1.0.${p}" }\n`);
    put(`${pkg}/README.md`, "readme\n");
    for (let f = 0; f < 98; f++) {
      const sub = ["lib", "src", "types", "esm"][f % 4];
      const ext = [".js", ".ts", ".d.ts", ".mjs", ".json"][f % 5];
      put(`${pkg}/${sub}/m${Math.floor(f / 10)}/file${f}${ext}`, text(rand, 4 + (f % 8), false));
    }
  }
  for (let i = 0; i < 20; i++) {
    fs.mkdirSync(path.join(dir, "node_modules/.bin"), { recursive: true });
    fs.symlinkSync(`../dep-${i}/lib/m0/file0.js`, path.join(dir, `node_modules/.bin/tool-${i}`));
  }
  // packages: 40 packages with src (nested dirs), test, dist (ignored), nested .gitignore.
  const remaining = 99_950 - files - 20 * 0;
  const perPkg = Math.floor((remaining - 40 * 4) / 40);
  for (let p = 0; p < 40; p++) {
    const pkg = `packages/pkg-${String(p).padStart(2, "0")}`;
    put(`${pkg}/package.json`, `{ "name": "pkg-${p}" }\n`);
    put(`${pkg}/tsconfig.json`, '{ "extends": "../../tsconfig.json" }\n');
    put(`${pkg}/.gitignore`, "tmp/\n*.local\n");
    put(`${pkg}/tmp/scratch.txt`, "scratch\n");
    const distCount = Math.floor(perPkg * 0.25);
    for (let f = 0; f < perPkg; f++) {
      if (f < distCount) {
        put(`${pkg}/dist/d${f % 7}/out${f}.js`, text(rand, 3, false));
        continue;
      }
      const kind = f % 10;
      const depth = f % 3;
      const dirs = ["src", "src/lib", "src/lib/util", "test", "docs"];
      const d = kind < 6 ? dirs[depth] : kind < 8 ? "test" : kind < 9 ? "docs" : "src/assets";
      const ext = kind < 6 ? ".ts" : kind < 8 ? ".test.ts" : kind < 9 ? ".md" : ".json";
      put(`${pkg}/${d}/g${Math.floor(f / 50)}/f${f}${ext}`, text(rand, 10 + (f % 40), rand() < 0.01));
    }
  }
  for (let i = 0; i < 5; i++) fs.symlinkSync("..", path.join(dir, `packages/pkg-0${i}/src/loop`));
  return files;
}

/** 200 MB of text, 2,000,000 lines (~100 bytes each), written in 1 MB blocks. */
function makeBigFile(file) {
  const fd = fs.openSync(file, "w");
  const pad =
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore";
  let block = [];
  let bytes = 0;
  for (let i = 1; i <= 2_000_000; i++) {
    const line = `${String(i).padStart(7, "0")} ${pad}`;
    block.push(line);
    bytes += line.length + 1;
    if (bytes >= 1 << 20) {
      fs.writeSync(fd, `${block.join("\n")}\n`);
      block = [];
      bytes = 0;
    }
  }
  if (block.length) fs.writeSync(fd, `${block.join("\n")}\n`);
  fs.closeSync(fd);
}

export function fixturePaths(base) {
  return {
    base,
    tree: path.join(base, "monorepo"),
    bigFile: path.join(base, "big", "big.txt"),
    wide: path.join(base, "wide"),
    many: path.join(base, "many"),
    redos: path.join(base, "redos"),
    folders: path.join(base, "folders"),
    /** Made by the directory_tree_1m case on first use (bench/lib/million-tree.mjs), not with the rest. */
    million: path.join(base, "million"),
  };
}

/** Makes the fixtures unless the stamp says they are current. Returns their paths. */
export function ensureFixtures(base, log = () => {}) {
  const p = fixturePaths(base);
  const stamp = path.join(base, ".stamp");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === FIXTURE_VERSION) return withFolders(p, log);
  log("generating fixtures (once; cached in bench/fixtures)…");
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base, { recursive: true });
  const t0 = Date.now();
  const n = makeTree(p.tree);
  log(`  monorepo: ${n} files`);
  fs.mkdirSync(path.dirname(p.bigFile), { recursive: true });
  makeBigFile(p.bigFile);
  log("  big file: 200 MB");
  const rand = rng(7);
  for (let i = 0; i < 20_000; i++)
    write(path.join(p.wide, `entry-${String(i).padStart(5, "0")}.txt`), `${i}\n`);
  for (let i = 0; i < 2_000; i++) {
    const body = text(rand, 200, false).slice(0, 4096).padEnd(4096, "x");
    write(path.join(p.many, `file-${String(i).padStart(4, "0")}.txt`), body);
  }
  write(path.join(p.redos, "aaa.txt"), `${"a".repeat(50_000)}!\n`);
  fs.writeFileSync(stamp, FIXTURE_VERSION);
  log(`fixtures ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return withFolders(p, log);
}

/** Files in the folder-heavy fixture (folders before files, as real repositories list them). */
export const FOLDER_FILES = 20_000;

/** The folder-heavy fixture has its own stamp, so adding it does not regenerate the others. */
function withFolders(p, log) {
  const t0 = Date.now();
  const entries = makeFolderTree(p.folders, FOLDER_FILES);
  if (Date.now() - t0 > 2000) log(`  folder-heavy tree: ${entries} entries`);
  return p;
}
