/** Real temporary directories for tests: created under the OS temp dir, removed by `cleanup`. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface TempArea {
  /** The base temp directory (realpath'd). */
  base: string;
  /** Makes `base/rel` with the given files: `{ "a/b.txt": "text", "dir/": null }`. */
  tree(rel: string, files?: Record<string, string | Buffer | null>): string;
  cleanup(): void;
}

export function tempArea(prefix = "mcpfs-test-"): TempArea {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  return {
    base,
    tree(rel, files = {}) {
      const dir = path.join(base, rel);
      fs.mkdirSync(dir, { recursive: true });
      for (const [name, content] of Object.entries(files)) {
        const p = path.join(dir, name);
        if (content === null || name.endsWith("/")) {
          fs.mkdirSync(p, { recursive: true });
        } else {
          fs.mkdirSync(path.dirname(p), { recursive: true });
          fs.writeFileSync(p, content);
        }
      }
      return dir;
    },
    cleanup() {
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** Every file below `dir` with its content (for "nothing changed outside" assertions). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) out.set(p, `link:${fs.readlinkSync(p)}`);
      else if (e.isDirectory()) {
        out.set(p, "dir");
        walk(p);
      } else out.set(p, fs.readFileSync(p, "latin1"));
    }
  };
  walk(dir);
  return out;
}

/** Every entry below `dir` with its kind, mode bits and content: "every byte, mode and name unchanged". */
export function snapshotWithModes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [p, v] of snapshot(dir)) out.set(p, `${(fs.lstatSync(p).mode & 0o7777).toString(8)}:${v}`);
  return out;
}
