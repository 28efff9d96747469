import fs from "node:fs/promises";
import path from "node:path";
import { remoteUrl } from "./git/repo.js";
import { openRepository } from "./git/repository-gate.js";
import { makeRoot, namesOf, type Root } from "./root.js";

/** One `--reference-project` value, parsed. `path` is absent only for the URL-only form `name=N,url=U`. */
export interface ReferenceSpec {
  name: string;
  path?: string;
  url?: string;
}

/**
 * A URL-only reference project: its directory is missing (or was never given) but `url=` names its repository.
 * The GitHub tools reach it by URL (the seed: "no clone is performed, so a URL-only reference project works");
 * the file tools and git() have nothing to read, so they refuse it by name (not_found, `reference_url_only`).
 */
export interface UrlOnlyReference {
  readonly name: string;
  readonly url: string;
  /** The path the user gave, if any (reported, never created). */
  readonly path?: string;
}

export interface ResolvedReferences {
  /** References with a local directory: read-only roots. */
  roots: Root[];
  urlOnly: UrlOnlyReference[];
}

/** A reference project whose explicit URL contradicts its `origin` remote: fatal at startup. */
export class ReferenceUrlMismatch extends Error {}

const KNOWN_KEYS = new Set(["name", "path", "url"]);

/**
 * Parses both spellings: mcp-workspace's README form `NAME=/path` and its code's key-value form
 * `name=N,path=P[,url=U]` (or URL-only `name=N,url=U`). A value is the key-value form when any
 * comma-separated piece has a known key; otherwise everything after the first `=` is the path (so a path
 * may contain commas or `=`).
 */
export function parseReferenceArg(arg: string): ReferenceSpec | { warning: string } {
  const pairs = new Map<string, string>();
  for (const piece of arg.split(",")) {
    const eq = piece.indexOf("=");
    if (eq > 0) pairs.set(piece.slice(0, eq).trim(), piece.slice(eq + 1));
  }
  const keyValue = [...pairs.keys()].some((k) => KNOWN_KEYS.has(k));
  if (!keyValue) {
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq).trim() : "";
    const p = eq > 0 ? arg.slice(eq + 1) : "";
    if (!name || !p)
      return {
        warning: `Invalid reference project format (expected NAME=/path or name=<name>,path=<path>[,url=<url>]): argument=${arg}`,
      };
    return { name, path: p };
  }
  const name = pairs.get("name")?.trim();
  if (!name) return { warning: `Invalid reference project format (missing 'name' key): argument=${arg}` };
  const p = pairs.get("path");
  const url = pairs.get("url")?.trim();
  // Without a path only a URL can identify the project: `name=N,url=U` is the URL-only form.
  if (!p && !url)
    return { warning: `Invalid reference project format (missing 'path' key): argument=${arg}` };
  return { name, ...(p ? { path: p } : {}), ...(url ? { url } : {}) };
}

/** `git@host:org/repo(.git)` and `https://host/org/repo(.git)(/)` compare equal; only the host is case-folded. */
export function normalizeRepoUrl(url: string): string {
  let u = url.trim();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(u);
  if (scp) u = `https://${scp[1]}/${scp[2]}`;
  u = u
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .replace(/\/+$/, "");
  const m = /^(https?:\/\/)(?:[^@/]*@)?([^/]+)(.*)$/.exec(u);
  if (m) u = `${m[1]}${m[2]!.toLowerCase()}${m[3]}`;
  return u;
}

/** The `origin` remote of a root that is itself a git repository (one the repository gate admits), or undefined. */
export async function originUrl(root: Root): Promise<string | undefined> {
  try {
    await fs.lstat(path.join(root.real, ".git"));
  } catch {
    return undefined;
  }
  const repo = await openRepository(root).catch(() => undefined);
  return (repo && (await remoteUrl(repo)))?.trim() || undefined;
}

/**
 * Turns the `--reference-project` values into read-only roots: invalid ones are reported through `warn` and
 * skipped; duplicate names become `docs`, `docs_2`, `docs_3`; a reference equal to, inside or above the
 * project is refused; the URL is the explicit `url=` (which must agree with the `origin` remote, when there
 * is one) or the `origin` remote. Relative paths resolve against `cwd`. A reference whose path is missing
 * (or not given) but which has a `url=` is kept as URL-only: it is never cloned.
 */
export async function resolveReferenceProjects(
  args: readonly string[],
  project: Root,
  warn: (message: string) => void,
  cwd: string = process.cwd(),
): Promise<ResolvedReferences> {
  const out: ResolvedReferences = { roots: [], urlOnly: [] };
  const names = new Set<string>();
  const uniqueName = (wanted: string): string => {
    let name = wanted;
    for (let n = 2; names.has(name); n++) name = `${wanted}_${n}`;
    names.add(name);
    return name;
  };
  for (const arg of args) {
    const spec = parseReferenceArg(arg);
    if ("warning" in spec) {
      warn(spec.warning);
      continue;
    }
    const abs = spec.path === undefined ? undefined : path.resolve(cwd, spec.path);
    const st = abs === undefined ? undefined : await fs.stat(abs).catch(() => undefined);
    if (!st || abs === undefined) {
      if (spec.url) {
        out.urlOnly.push({ name: uniqueName(spec.name), url: spec.url, ...(abs ? { path: abs } : {}) });
        continue;
      }
      warn(`Reference project path does not exist: name=${spec.name}, path=${abs}`);
      continue;
    }
    if (!st.isDirectory()) {
      warn(`Reference project path is not a directory: name=${spec.name}, path=${abs}`);
      continue;
    }
    const real = await fs.realpath(abs);
    const names = namesOf(project);
    if (names.equal(real, project.real)) {
      warn(
        `Reference project '${spec.name}' points to the same directory as the main project, ignoring: path=${abs}`,
      );
      continue;
    }
    if (names.isAtOrBelow(real, project.real)) {
      warn(`Reference project '${spec.name}' is a subdirectory of the main project, ignoring: path=${abs}`);
      continue;
    }
    if (names.isAtOrBelow(project.real, real)) {
      warn(`Reference project '${spec.name}' is a parent of the main project, ignoring: path=${abs}`);
      continue;
    }
    const root = await makeRoot(abs, "ro", "reference");
    const detected = await originUrl(root);
    if (spec.url && detected && normalizeRepoUrl(spec.url) !== normalizeRepoUrl(detected))
      throw new ReferenceUrlMismatch(
        `URL mismatch for '${spec.name}': explicit '${spec.url}' != detected '${detected}'`,
      );
    const url = spec.url ?? detected;
    const name = uniqueName(spec.name);
    out.roots.push(url ? { ...root, name, url } : { ...root, name });
  }
  return out;
}
