// The 1M-entry fixture of the directory_tree scale row: 100 folders × 100 sub-folders × 99 empty files
// (1,000,100 entries), no ignore file, so every server shows the same tree. Made once, reused while the
// stamp matches; empty files keep it to inodes (no data blocks), a minute or two to make.
import fs from "node:fs";
import path from "node:path";

const STAMP = ".mcpfs-million-tree";
const VERSION = "v1 100x100x99";
export const MILLION_ENTRIES = 100 + 100 * 100 + 100 * 100 * 99;

/** Makes (once) the tree in `dir`; returns its entry count. */
export function makeMillionTree(dir, log = () => {}) {
  // The stamp lives beside the tree, not in it: the tree holds exactly its entries.
  const stamp = `${dir}${STAMP}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === VERSION) return MILLION_ENTRIES;
  log(`  making the 1M-entry tree in ${dir} (once)…`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (let a = 0; a < 100; a++) {
    const top = path.join(dir, `dir-${String(a).padStart(2, "0")}`);
    for (let b = 0; b < 100; b++) {
      const sub = path.join(top, `sub-${String(b).padStart(2, "0")}`);
      fs.mkdirSync(sub, { recursive: true });
      for (let c = 0; c < 99; c++) fs.closeSync(fs.openSync(path.join(sub, `file-${c}.txt`), "w"));
    }
  }
  fs.writeFileSync(stamp, VERSION);
  return MILLION_ENTRIES;
}
