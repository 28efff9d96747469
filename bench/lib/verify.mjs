// Hit-set checks: every search/list case compares what mcpfs returned with what the OS tool finds on the
// same data, and a mismatch fails the case loudly (the bench exits non-zero). Counts alone once hid a
// grep that returned 1 of 219 matches.
import path from "node:path";

/** Thrown for a hit-set mismatch; run.mjs prints it in capitals and exits 1. */
export class HitSetMismatch extends Error {}

const sample = (xs) => xs.slice(0, 5).join(", ") + (xs.length > 5 ? `, … (${xs.length})` : "");

/**
 * `mine` must equal `theirs` when mcpfs says the reply is whole; when it says it was cut, `mine` must be a
 * part of `theirs` and smaller. Returns a short note for the table.
 */
export function checkHits(label, mine, theirs, { truncated = false } = {}) {
  const a = new Set(mine);
  const b = new Set(theirs);
  const extra = [...a].filter((x) => !b.has(x));
  const missing = truncated ? [] : [...b].filter((x) => !a.has(x));
  if (extra.length > 0 || missing.length > 0 || (truncated && a.size >= b.size)) {
    throw new HitSetMismatch(
      `HIT SET MISMATCH in ${label}: mcpfs ${a.size}${truncated ? " (says truncated)" : ""}, OS tool ${b.size}; ` +
        `missing from mcpfs: [${sample(missing)}]; not found by the OS tool: [${sample(extra)}]`,
    );
  }
  return truncated
    ? `hits ⊂ OS tool's (${a.size} of ${b.size}, marked truncated)`
    : `hits = OS tool's (${a.size})`;
}

/** Output lines of an OS tool, as paths relative to `dir` ("./x" and absolute forms folded). */
export function relLines(out, dir) {
  return out
    .toString()
    .split("\n")
    .filter(Boolean)
    .map((l) => rel(l, dir))
    .filter((l) => l !== "" && l !== ".");
}

export function rel(p, dir) {
  if (path.isAbsolute(p)) return path.relative(dir, p).split(path.sep).join("/");
  return p.startsWith("./") ? p.slice(2) : p;
}

/** The paths a directory_tree JSON reply shows (relative, "/" separators). */
export function treePaths(nodes, prefix = "") {
  const out = [];
  for (const n of nodes) {
    const p = prefix === "" ? n.name : `${prefix}/${n.name}`;
    out.push(p);
    if (n.children) out.push(...treePaths(n.children, p));
  }
  return out;
}

/**
 * "path:line" keys of grep's filesystem text, relative to `dir`, the directory grep searched: ripgrep's
 * heading layout (a file's path on a line of its own, then `line: text` rows, `line- text` context rows).
 */
export function grepKeys(text, dir) {
  const out = [];
  let file;
  for (const l of (text ?? "").split("\n")) {
    if (l === "" || l === "--" || l.startsWith("[mcpfs:")) continue;
    const m = /^(\d+)([:-]) /.exec(l);
    if (!m) file = l;
    else if (m[2] === ":" && file !== undefined) out.push(`${rel(file, dir)}:${m[1]}`);
  }
  return out;
}

/** "path:line" keys of `rg -n` output. */
export function rgKeys(out, dir) {
  const keys = [];
  for (const l of out.toString().split("\n")) {
    const m = /^(.+?):(\d+):/.exec(l);
    if (m) keys.push(`${rel(m[1], dir)}:${m[2]}`);
  }
  return keys;
}
