/** Real git repositories for tests: commits, branches, and a bare "remote" on disk. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export function git(dir: string, ...args: string[]): string {
  // The tests' own git calls ignore repository-configured programs (some tests plant hostile ones).
  const safe = ["--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"];
  return execFileSync("git", [...safe, ...args], {
    cwd: dir,
    env: ENV,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function initRepo(dir: string, branch = "main"): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", branch);
  git(dir, "config", "commit.gpgsign", "false");
  return dir;
}

export function commit(dir: string, files: Record<string, string>, message: string): string {
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
    git(dir, "add", "--", name);
  }
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD").trim();
}

/** A bare clone of `dir` at `bare`, added to `dir` as `origin` and fetched. */
export function addBareRemote(dir: string, bare: string, url?: string): void {
  git(path.dirname(bare), "clone", "-q", "--bare", dir, bare);
  git(dir, "remote", "add", "origin", bare);
  git(dir, "fetch", "-q", "origin");
  if (url) git(dir, "remote", "set-url", "origin", url);
}

export function refs(dir: string): string {
  return git(dir, "for-each-ref", "--format=%(refname)");
}

/**
 * A path inside `dir` for a test's local remote or object store (git stays inside the roots: a local remote
 * outside the root is refused), kept out of `git status` by `.git/info/exclude`.
 */
export function innerRemotePath(dir: string, name: string): string {
  const exclude = path.join(dir, ".git/info/exclude");
  fs.mkdirSync(path.dirname(exclude), { recursive: true });
  const line = "/.test-remotes/\n";
  if (!fs.existsSync(exclude) || !fs.readFileSync(exclude, "utf8").includes(line))
    fs.appendFileSync(exclude, line);
  const p = path.join(dir, ".test-remotes", name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  return p;
}
