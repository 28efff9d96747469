import { checkGlobCount, compileGlob } from "./glob-match.js";

/**
 * Include globs with ripgrep's `-g` semantics, so both grep engines select the same files: gitignore-style
 * globs relative to the search start (no "/" = any depth, a "/" anchors), `!` negates, the last glob that
 * matches decides, and when any positive glob is given a file must match one. Positive globs select files
 * only; a directory is pruned only by a negated glob.
 */
export interface GlobFilter {
  /** Whether a file is selected. */
  file(rel: string): boolean;
  /** Whether a directory is pruned. */
  prunes(rel: string): boolean;
}

interface Compiled {
  negated: boolean;
  /** Whether a file matches. */
  test: (rel: string) => boolean;
  /** Whether a directory matches, or everything below it would: what a negated glob prunes. */
  testDir: (rel: string) => boolean;
}

function compileOne(glob: string): Compiled {
  const negated = glob.startsWith("!");
  let body = negated ? glob.slice(1) : glob;
  if (body.endsWith("/")) body = body.slice(0, -1);
  const anchored = body.includes("/");
  if (body.startsWith("/")) body = body.slice(1);
  const full = anchored ? body : `**/${body}`;
  const parentGlob = full.endsWith("/**") ? full.slice(0, -3) : "";
  if (parentGlob !== "" && parentGlob !== "**" && !parentGlob.endsWith("/**")) {
    // `X/**` is what lies below X, not X itself (git and ripgrep; picomatch would also match X).
    const parent = compileGlob(parentGlob);
    const below = (rel: string) => {
      for (let i = rel.indexOf("/"); i > 0; i = rel.indexOf("/", i + 1))
        if (parent(rel.slice(0, i))) return true;
      return false;
    };
    return { negated, test: below, testDir: (rel) => parent(rel) || below(rel) };
  }
  const test = compileGlob(full);
  return { negated, test, testDir: test };
}

export function compileGlobs(globs: readonly string[] | undefined): GlobFilter | undefined {
  checkGlobCount(globs ?? [], "globs");
  const list = (globs ?? []).filter((g) => g !== "" && g !== "!").map(compileOne);
  if (list.length === 0) return undefined;
  const anyPositive = list.some((g) => !g.negated);
  const decide = (rel: string, dir: boolean): boolean | undefined => {
    for (let i = list.length - 1; i >= 0; i--) {
      const g = list[i]!;
      if (dir ? g.testDir(rel) : g.test(rel)) return !g.negated;
    }
    return undefined;
  };
  return {
    file: (rel) => decide(rel, false) ?? !anyPositive,
    prunes: (rel) => decide(rel, true) === false,
  };
}

/**
 * Re-anchors globs written relative to `startRel` (a path below ripgrep's working directory) so ripgrep,
 * which anchors `-g` globs at its working directory, selects the same files.
 */
export function anchorGlobs(globs: readonly string[], startRel: string): string[] {
  if (startRel === "") return [...globs];
  return globs.map((g) => {
    const negated = g.startsWith("!");
    const body = negated ? g.slice(1) : g;
    const core = body.endsWith("/") ? body.slice(0, -1) : body;
    if (!core.includes("/")) return g;
    return `${negated ? "!" : ""}/${startRel}/${body.replace(/^\//, "")}`;
  });
}
