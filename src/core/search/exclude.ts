import { checkGlobCount, compileGlob } from "../search/glob-match.js";

/**
 * Exclude patterns for tree and name searches, one meaning for every tool (the official server gave
 * `directory_tree` and `search_files` two different ones): gitignore-style globs relative to the start.
 * A pattern without `/` matches a name at any depth (`*.log`, `node_modules`); a `/` anchors it to the
 * start (`src/gen`, `/build`); a trailing `/` matches directories only. Excluded directories are pruned.
 */
export function compileExcludes(
  patterns: readonly string[] | undefined,
): (rel: string, isDir: boolean) => boolean {
  checkGlobCount(patterns ?? [], "exclude");
  const tests = (patterns ?? [])
    .map((p) => p.trim())
    .filter((p) => p !== "" && p !== "/")
    .map((p) => {
      const dirOnly = p.endsWith("/");
      let body = dirOnly ? p.slice(0, -1) : p;
      const anchored = body.includes("/");
      if (body.startsWith("/")) body = body.slice(1);
      if (body.startsWith("./")) body = body.slice(2);
      const isMatch = compileGlob(anchored ? body : `**/${body}`);
      return (rel: string, isDir: boolean) => (!dirOnly || isDir) && isMatch(rel);
    });
  if (tests.length === 0) return () => false;
  return (rel, isDir) => tests.some((t) => t(rel, isDir));
}

/** Orders relative paths as a depth-first walk of sorted directories would ("a", "a/b", "a-c"). */
export function comparePaths(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  const n = Math.min(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}
