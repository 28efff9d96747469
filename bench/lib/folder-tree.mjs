// A folder-heavy tree shaped like real repositories: every directory's sub-folders are made before its files,
// and the folders carry names that sort before the files beside them ("a-*" folders, "z-*" files), so a
// walker or probe that looks at the first few hundred entries sees folders, not files.
// One generator for the bench's folder-heavy fixture and for `npm run bench -- --scale` (10k / 100k / 1M).
import fs from "node:fs";
import path from "node:path";

export const FOLDER_NEEDLE = "MCPFS_FOLDER_NEEDLE_3K";
const STAMP = ".mcpfs-folder-tree";
const VERSION = "v1";

/**
 * Layout for `files` files: pkg-NNNN / a-mod-N / a-dir-N / z-file-N.ts, 10 files per leaf folder, 10 leaves per
 * module, 10 modules per package; each package and module also holds a z-index.ts; 1 file in 100 holds
 * FOLDER_NEEDLE; a root .gitignore drops `*.log` and every `a-gen/` folder (which holds a file per module).
 */
export function makeFolderTree(dir, files) {
  const stamp = path.join(dir, STAMP);
  const want = `${VERSION} ${files}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === want) return countOf(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, ".gitignore"), "*.log\na-gen/\n");
  let made = 0;
  let serial = 0;
  const body = () => {
    serial++;
    const needle = serial % 100 === 37 ? `\n// ${FOLDER_NEEDLE} marker ${serial}` : "";
    return `export const v${serial} = ${serial};\nexport function f${serial}() { return v${serial}; }${needle}\n`;
  };
  const leaves = Math.ceil(files / 10);
  const pkgs = Math.ceil(leaves / 100);
  for (let p = 0; p < pkgs && made < files; p++) {
    const pkg = path.join(dir, `pkg-${String(p).padStart(4, "0")}`);
    for (let m = 0; m < 10 && made < files; m++) {
      const mod = path.join(pkg, `a-mod-${m}`);
      const leafDirs = [];
      for (let l = 0; l < 10; l++) leafDirs.push(path.join(mod, `a-dir-${l}`));
      for (const d of leafDirs) fs.mkdirSync(d, { recursive: true });
      fs.mkdirSync(path.join(mod, "a-gen"));
      for (const d of leafDirs) {
        for (let f = 0; f < 10 && made < files; f++, made++)
          fs.writeFileSync(path.join(d, `z-file-${f}.ts`), body());
      }
      fs.writeFileSync(path.join(mod, "a-gen", "z-out.ts"), `// generated ${FOLDER_NEEDLE}\n`);
      fs.writeFileSync(path.join(mod, "z-build.log"), `${FOLDER_NEEDLE} in a log\n`);
      if (made < files) {
        fs.writeFileSync(path.join(mod, "z-index.ts"), body());
        made++;
      }
    }
    if (made < files && fs.existsSync(pkg)) {
      fs.writeFileSync(path.join(pkg, "z-index.ts"), body());
      made++;
    }
  }
  fs.writeFileSync(stamp, want);
  return countOf(dir);
}

/** Entries below `dir` (files + folders, gitignore not applied) as the generator left them. */
function countOf(dir) {
  let entries = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop();
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      entries++;
      if (e.isDirectory()) stack.push(path.join(d, e.name));
    }
  }
  return entries;
}
