import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { isWithin } from "./paths.js";
import { makeRoot, type Root } from "./workspace.js";

/** One `--reference-project` value, parsed. */
export interface ReferenceSpec {
  name: string;
  path: string;
  url?: string;
}

/** A reference project whose explicit URL contradicts its `origin` remote: fatal at startup. */
export class ReferenceUrlMismatch extends Error {}

const KNOWN_KEYS = new Set(["name", "path", "url"]);

/**
 * Parses both spellings: mcp-workspace's README form `NAME=/path` and its code's key-value form
 * `name=N,path=P[,url=U]`. A value is the key-value form when any comma-separated piece has a known key;
 * otherwise everything after the first `=` is the path (so a path may contain commas or `=`).
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
  if (!p) return { warning: `Invalid reference project format (missing 'path' key): argument=${arg}` };
  const url = pairs.get("url")?.trim();
  return url ? { name, path: p, url } : { name, path: p };
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

/** The `origin` remote of a directory that is itself a git repository root, or undefined. */
export async function originUrl(dir: string): Promise<string | undefined> {
  try {
    await fs.lstat(path.join(dir, ".git"));
  } catch {
    return undefined;
  }
  return new Promise((resolve) => {
    execFile(
      "git",
      ["-C", dir, "config", "--get", "remote.origin.url"],
      { timeout: 10_000, windowsHide: true },
      (err, stdout) => resolve(err ? undefined : stdout.trim() || undefined),
    );
  });
}

/**
 * Turns the `--reference-project` values into read-only roots: invalid ones are reported through `warn` and
 * skipped; duplicate names become `docs`, `docs_2`, `docs_3`; a reference equal to, inside or above the
 * project is refused; the URL is the explicit `url=` (which must agree with the `origin` remote, when there
 * is one) or the `origin` remote. Relative paths resolve against `cwd`.
 */
export async function resolveReferenceProjects(
  args: readonly string[],
  project: Root,
  warn: (message: string) => void,
  cwd: string = process.cwd(),
): Promise<Root[]> {
  const out: Root[] = [];
  const names = new Set<string>();
  for (const arg of args) {
    const spec = parseReferenceArg(arg);
    if ("warning" in spec) {
      warn(spec.warning);
      continue;
    }
    const abs = path.resolve(cwd, spec.path);
    const st = await fs.stat(abs).catch(() => undefined);
    if (!st) {
      warn(`Reference project path does not exist: name=${spec.name}, path=${abs}`);
      continue;
    }
    if (!st.isDirectory()) {
      warn(`Reference project path is not a directory: name=${spec.name}, path=${abs}`);
      continue;
    }
    const real = await fs.realpath(abs);
    if (real === project.real) {
      warn(
        `Reference project '${spec.name}' points to the same directory as the main project, ignoring: path=${abs}`,
      );
      continue;
    }
    if (isWithin(real, project.real)) {
      warn(`Reference project '${spec.name}' is a subdirectory of the main project, ignoring: path=${abs}`);
      continue;
    }
    if (isWithin(project.real, real)) {
      warn(`Reference project '${spec.name}' is a parent of the main project, ignoring: path=${abs}`);
      continue;
    }
    const detected = await originUrl(real);
    if (spec.url && detected && normalizeRepoUrl(spec.url) !== normalizeRepoUrl(detected))
      throw new ReferenceUrlMismatch(
        `URL mismatch for '${spec.name}': explicit '${spec.url}' != detected '${detected}'`,
      );
    const url = spec.url ?? detected;
    let name = spec.name;
    for (let n = 2; names.has(name); n++) name = `${spec.name}_${n}`;
    names.add(name);
    out.push(await makeRoot(abs, "ro", "reference", url ? { name, url } : { name }));
  }
  return out;
}
