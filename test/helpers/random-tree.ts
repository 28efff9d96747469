/**
 * Random trees for differential tests, and the plain ways of computing what mcpfs computes fast: a recursive
 * `fs.readdirSync` walk with the `ignore` package (git's rules, written out here), and the shipped `rg` binary.
 */

import { isUtf8 } from "node:buffer";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import ignore from "ignore";

/** Common names come often, so rules, folders and files meet (a/b under a rule for a/b/, a negation below). */
const NAMES = [
  "a",
  "a",
  "a",
  "b",
  "b",
  "b",
  "src",
  "lib",
  "build",
  "a",
  "b",
  "src",
  "lib",
  "build",
  "node_modules",
  ".hidden",
  ".env",
  "café",
  "日本語",
  "x y",
  "Ünï",
  "keep.log",
  "data.log",
  "main.ts",
  "notes.txt",
  "README.md",
  "-dash",
  "z",
];
const WORDS = [
  "needle",
  "foo",
  "fooo",
  "bar",
  "baz",
  "café",
  "Straße",
  "ÉCOLE",
  "école",
  "NEEDLE",
  "qux",
  "日本",
];
/** Rules in the spirit of real .gitignore files: anchored, dir-only, globstars, negations, whitelists. */
const RULES = [
  "*.log",
  "!keep.log",
  "build/",
  "/build",
  "node_modules",
  "*.ts",
  "!main.ts",
  "src/*.txt",
  "**/lib",
  ".hidden",
  "!.hidden",
  "café",
  "a/**",
  "!a/b",
  "*",
  "!*/",
  "b",
  "!src/",
  "x y",
  "日本語/",
  "*.md",
  "!README.md",
  "/a/b/",
  "!b/",
  "z/",
  "lib/**/*.txt",
  "!*.txt",
  "!b/",
  "/a/b/",
];

export type ContentKind = "text" | "crlf" | "nonl" | "long" | "binary" | "late-binary" | "empty";
export interface FileSpec {
  kind: ContentKind;
  lines: string[];
  nulAt: number;
}
export type NodeSpec = { t: "dir" } | { t: "file"; file: FileSpec } | { t: "link"; target: string };
export interface TreeSpec {
  /** folders: many folders, few files, folders made first; files: the other way round. */
  shape: "folders" | "files";
  entries: { path: string[]; node: NodeSpec }[];
  /** .gitignore files: a directory (index into the tree's folders, root first) and its rules. */
  ignores: { dir: number; rules: string[] }[];
  /** Rules of the root's .git/info/exclude (the root then holds a .git folder), or null. */
  exclude: string[] | null;
  /** A folder (index) that holds its own .git (a nested repository), with its info/exclude rules. */
  nested: { dir: number; rules: string[] } | null;
  /** Extra entries made first at the top: empty folders + dangling links (folders) or small files (files). */
  bulk: number;
}

const line = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
const fileSpec: fc.Arbitrary<FileSpec> = fc.record({
  kind: fc.constantFrom<ContentKind>(
    "text",
    "text",
    "crlf",
    "nonl",
    "long",
    "binary",
    "late-binary",
    "empty",
  ),
  lines: fc.array(line, { minLength: 1, maxLength: 6 }),
  nulAt: fc.nat(200),
});
const nodeSpec = (shape: TreeSpec["shape"]): fc.Arbitrary<NodeSpec> =>
  fc.oneof(
    { weight: shape === "folders" ? 5 : 1, arbitrary: fc.constant<NodeSpec>({ t: "dir" }) },
    {
      weight: shape === "folders" ? 2 : 6,
      arbitrary: fileSpec.map<NodeSpec>((file) => ({ t: "file", file })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("notes.txt", "..", "../a", "missing", "a/main.ts")
        .map<NodeSpec>((target) => ({ t: "link", target })),
    },
  );
const rules = fc.array(fc.constantFrom(...RULES), { minLength: 1, maxLength: 4 });

export const treeSpec: fc.Arbitrary<TreeSpec> = fc
  .constantFrom<TreeSpec["shape"]>("folders", "files")
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      entries: fc.array(
        fc.record({
          path: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: shape === "folders" ? 5 : 3 }),
          node: nodeSpec(shape),
        }),
        { maxLength: 40 },
      ),
      ignores: fc.array(fc.record({ dir: fc.nat(30), rules }), { maxLength: 4 }),
      exclude: fc.option(rules, { nil: null }),
      nested: fc.option(fc.record({ dir: fc.nat(30), rules }), { nil: null, freq: 4 }),
      // Past the in-process grep's 200-file probe now and then (the folder-heavy trees that fooled it).
      bulk: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 150, max: 260 }) },
      ),
    }),
  );

function fileBytes(f: FileSpec): Buffer {
  const text = f.lines.join("\n");
  switch (f.kind) {
    case "text":
      return Buffer.from(`${text}\n`);
    case "crlf":
      return Buffer.from(`${f.lines.join("\r\n")}\r\n`);
    case "nonl":
      return Buffer.from(text);
    case "long":
      return Buffer.from(`${"x".repeat(3000)} ${text} ${"y".repeat(3000)}\n${text}\n`);
    case "binary": {
      const b = Buffer.from(`${text}\n`);
      const at = f.nulAt % (b.length + 1);
      return Buffer.concat([b.subarray(0, at), Buffer.from([0]), b.subarray(at)]);
    }
    case "late-binary":
      // A NUL far past the first read: what was searched before it stands (as ripgrep does).
      return Buffer.concat([
        Buffer.from(`${text}\n${"filler line\n".repeat(8000)}`),
        Buffer.from([0]),
        Buffer.from(`${text}\n`),
      ]);
    case "empty":
      return Buffer.alloc(0);
  }
}

/** Writes the tree under `dir` (made empty first). Returns the folders made, root ("") first. */
export function writeTree(dir: string, spec: TreeSpec): string[] {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const kinds = new Map<string, NodeSpec["t"]>([["", "dir"]]);
  const dirs = [""];
  for (let i = 0; i < spec.bulk; i++) {
    const n = String(i).padStart(3, "0");
    if (spec.shape === "folders") {
      fs.mkdirSync(path.join(dir, `0bulk${n}`));
      fs.symlinkSync("nowhere", path.join(dir, `0link${n}`));
    } else fs.writeFileSync(path.join(dir, `0bulk${n}.txt`), i % 10 === 0 ? "needle in bulk\n" : "filler\n");
  }
  const ensureDir = (rel: string): boolean => {
    const k = kinds.get(rel);
    if (k !== undefined) return k === "dir";
    if (!ensureDir(path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel))) return false;
    fs.mkdirSync(path.join(dir, rel));
    kinds.set(rel, "dir");
    dirs.push(rel);
    return true;
  };
  // Folders first (as real repositories list them), then files and links.
  const ordered = [...spec.entries].sort(
    (x, y) => (x.node.t === "dir" ? 0 : 1) - (y.node.t === "dir" ? 0 : 1),
  );
  for (const { path: segs, node } of ordered) {
    const rel = segs.join("/");
    const parent = segs.slice(0, -1).join("/");
    if (kinds.has(rel) || !ensureDir(parent)) continue;
    if (node.t === "dir") ensureDir(rel);
    else if (node.t === "file") {
      fs.writeFileSync(path.join(dir, rel), fileBytes(node.file));
      kinds.set(rel, "file");
    } else {
      fs.symlinkSync(node.target, path.join(dir, rel));
      kinds.set(rel, "link");
    }
  }
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  for (const ig of spec.ignores) {
    const d = dirs[ig.dir % dirs.length]!;
    put(path.posix.join(d, ".gitignore"), `${ig.rules.join("\n")}\n`);
  }
  if (spec.exclude) put(".git/info/exclude", `${spec.exclude.join("\n")}\n`);
  if (spec.nested && dirs.length > 1) {
    const d = dirs[1 + (spec.nested.dir % (dirs.length - 1))]!;
    put(path.posix.join(d, ".git/info/exclude"), `${spec.nested.rules.join("\n")}\n`);
  }
  return dirs;
}

export interface RefEntry {
  rel: string;
  type: "file" | "dir" | "symlink" | "other";
}

interface Level {
  base: string;
  rules: string[];
}

/**
 * The plain walk, with git's rules as ripgrep applies them: each directory's `.gitignore` (and
 * `.git/info/exclude` where it holds `.git`) adds a level; the levels above a nested `.git` keep applying
 * (ripgrep's rule; git would not enter a nested repository at all); each entry is
 * judged by its own path against every level on its way, the deepest level with a verdict winning; an
 * ignored folder is not entered; `.git` is skipped. The `ignore` package also consults a path's parent
 * folders, which git does not (it has already decided them): anchored negations of the parents stop that.
 */
export function referenceWalk(
  top: string,
  opts: { gitignore: boolean; maxDepth?: number } = { gitignore: true },
): RefEntry[] {
  const out: RefEntry[] = [];
  const rulesOf = (file: string): string[] => {
    try {
      return fs
        .readFileSync(file, "utf8")
        .split(/\r?\n/)
        .filter((l) => l.trim() !== "" && !l.startsWith("#"));
    } catch {
      return [];
    }
  };
  const verdict = (lv: Level, rel: string, isDir: boolean): boolean | undefined => {
    const sub = lv.base === "" ? rel : rel.slice(lv.base.length + 1);
    const segs = sub.split("/");
    const parents = segs.slice(0, -1).map((_, i) => `!/${segs.slice(0, i + 1).join("/")}/`);
    const r = ignore()
      .add(lv.rules)
      .add(parents)
      .test(isDir ? `${sub}/` : sub);
    return r.ignored ? true : r.unignored ? false : undefined;
  };
  const visit = (rel: string, inherited: Level[], depth: number) => {
    const abs = rel === "" ? top : path.join(top, rel);
    let list: fs.Dirent[];
    try {
      list = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    let levels = inherited;
    if (opts.gitignore) {
      const hasGit = list.some((d) => d.name === ".git");
      levels = [...inherited];
      if (hasGit) levels.push({ base: rel, rules: rulesOf(path.join(abs, ".git/info/exclude")) });
      levels.push({ base: rel, rules: rulesOf(path.join(abs, ".gitignore")) });
    }
    for (const d of list) {
      if (opts.gitignore && d.name === ".git") continue;
      const childRel = rel === "" ? d.name : `${rel}/${d.name}`;
      const type = d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "dir" : d.isFile() ? "file" : "other";
      let ignored = false;
      for (const lv of levels) {
        const v = verdict(lv, childRel, type === "dir");
        if (v !== undefined) ignored = v;
      }
      if (ignored) continue;
      out.push({ rel: childRel, type });
      if (type === "dir" && (opts.maxDepth === undefined || depth + 1 < opts.maxDepth))
        visit(childRel, levels, depth + 1);
    }
  };
  visit("", [], 0);
  return out;
}

/** Folder-by-folder path order, as a sorted depth-first listing shows it ("a", "a/b", "a-c"). */
export function byPathSegments(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++)
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  return pa.length - pb.length;
}

export interface RgOptions {
  /** Relative to the tree ("" = the tree itself); may name a file. */
  start: string;
  pattern: string;
  literal: boolean;
  caseSensitive: boolean;
  contextLines: number;
  globs: string[];
}

/** "path\tline\ttext" for matches, "path\tline\t-\ttext" for context lines (paths relative to the start). */
export type LineSet = Set<string>;

/**
 * What the shipped rg binary finds, with options that say what mcpfs promises: hidden files searched,
 * .gitignore / .git/info/exclude honoured without a git repository, `.git` skipped, nothing from the user's
 * global configuration. ripgrep's `-g` overrides gitignore, mcpfs's globs only narrow: the glob part is
 * `rg --files -g` intersected with the plain search.
 */
export function rgReference(rgPath: string, tree: string, o: RgOptions): LineSet {
  const base = ["--no-config", "--hidden", "--no-ignore-global", "--no-require-git", "--crlf", "-g", "!.git"];
  const isFile = o.start !== "" && fs.statSync(path.join(tree, o.start)).isFile();
  // The tool's globs are relative to the path searched, and rg's to its working directory: rg runs from
  // inside a searched directory (a file is searched from the tree, by its path).
  const cwd = o.start === "" || isFile ? tree : path.join(tree, o.start);
  const where = isFile ? o.start : ".";
  const args = ["--json", ...base, o.caseSensitive ? "-s" : "-i"];
  if (o.literal) args.push("-F");
  if (o.contextLines > 0) args.push("-C", String(o.contextLines));
  args.push("-e", o.pattern, "--", where);
  const r = spawnSync(rgPath, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed: ${r.stderr}`);
  let allowed: Set<string> | undefined;
  if (o.globs.length > 0) {
    const g = spawnSync(rgPath, ["--files", ...base, ...o.globs.flatMap((x) => ["-g", x]), "--", where], {
      cwd,
      encoding: "utf8",
    });
    allowed = new Set(g.stdout.split("\n").filter(Boolean));
  }
  const strip = (p: string) => {
    if (isFile) return path.posix.basename(p);
    return p.startsWith("./") ? p.slice(2) : p;
  };
  const out: LineSet = new Set();
  const text = (t: { text?: string; bytes?: string }) => {
    let s = t.text ?? Buffer.from(t.bytes ?? "", "base64").toString("utf8");
    if (s.endsWith("\n")) s = s.slice(0, -1);
    if (s.endsWith("\r")) s = s.slice(0, -1);
    return s;
  };
  const matchLines = new Set<string>();
  const context: string[] = [];
  // mcpfs shows no line of a file that is not UTF-8 (the reads' decode policy: never U+FFFD), where ripgrep
  // prints it lossily; such a file here is one read (under 64 KiB, or valid up to its late NUL), so none.
  const utf8 = new Map<string, boolean>();
  const isText = (p: string) => {
    if (!utf8.has(p)) utf8.set(p, isUtf8(fs.readFileSync(path.resolve(cwd, p))));
    return utf8.get(p)!;
  };
  for (const raw of r.stdout.split("\n")) {
    if (raw === "") continue;
    const msg = JSON.parse(raw) as {
      type: string;
      data: { path?: { text?: string }; line_number?: number; lines?: { text?: string; bytes?: string } };
    };
    if (msg.type !== "match" && msg.type !== "context") continue;
    const p = msg.data.path?.text ?? "";
    if (allowed && !allowed.has(p)) continue;
    if (!isText(p)) continue;
    const key = `${strip(p)}\t${msg.data.line_number}`;
    if (msg.type === "match") {
      matchLines.add(key);
      out.add(`${key}\t${text(msg.data.lines!)}`);
    } else context.push(`${key}\t-\t${text(msg.data.lines!)}`);
  }
  for (const c of context) if (!matchLines.has(c.split("\t").slice(0, 2).join("\t"))) out.add(c);
  return out;
}
