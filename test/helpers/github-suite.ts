/**
 * One workspace server on a git project with a GitHub remote, its reference project and the fake GitHub,
 * set up before the file's tests and torn down after: the GitHub tool tests share it across their files
 * (reads and writes are separate files so that the client's write throttle, one write a second as GitHub
 * asks, runs beside the other tests instead of after them).
 */
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
// Spelled as the test files spell it, so that the mcp-installed project's alias swaps it for the installed package.
import { type Connection, startServer } from "../helpers/in-process.js";
import { expectFakeClean, FakeGitHub, type FakeRequest, fakeGitHubEnv } from "./fake-github.js";
import { tempArea } from "./fixtures.js";
import { commit, git, initRepo } from "./git-repo.js";
import { type Author, fixtures } from "./github-fixtures.js";

export const OWNER: Author = { login: "octocat", association: "OWNER" };
export const MEMBER: Author = { login: "teammate", association: "MEMBER" };
export const OUTSIDER: Author = { login: "drive-by", association: "CONTRIBUTOR" };
export const BOT: Author = { login: "Dependabot[bot]", association: "NONE" };

/** The suite of one test file: call `githubSuite()` at its top level. */
export function githubSuite() {
  const area = tempArea("mcpfs-gh-");
  const home = area.tree("home", {
    ".mcp_coder/config.toml": '[github]\ntrusted_commenters = ["dependabot[bot]"]\n',
  });
  const project = initRepo(path.join(area.base, "project"));
  commit(project, { "README.md": "hi\n" }, "init");
  git(project, "remote", "add", "origin", "https://github.com/octo/project.git");
  const refDir = initRepo(path.join(area.base, "lib"));
  commit(refDir, { "x.txt": "x\n" }, "init");
  git(refDir, "remote", "add", "origin", "git@github.com:other-org/lib.git");

  const fake = new FakeGitHub();
  let conn: Connection | undefined;
  const env = (extra: Record<string, string> = {}) => fakeGitHubEnv(fake, home, extra);

  beforeAll(async () => {
    await fake.start();
    conn = await startServer(
      ["--project-dir", project, "--console-only", "--reference-project", `name=lib,path=${refDir}`],
      { env: env() },
    );
  });
  expectFakeClean(fake);
  afterAll(async () => {
    await conn?.close();
    await fake.close();
    area.cleanup();
  });

  /** Serves `all` in pages of two with GitHub's Link header, so the client must follow `next`. */
  function paged(req: FakeRequest, all: unknown[], size = 2) {
    const page = Number(req.query.get("page") ?? "1");
    const perPage = Number(req.query.get("per_page") ?? "30");
    const n = Math.min(size, perPage);
    const items = all.slice((page - 1) * n, page * n);
    const headers: Record<string, string> = {};
    if (page * n < all.length) {
      const next = new URLSearchParams(req.query);
      next.set("page", String(page + 1));
      headers.link = `<${fake.url}${req.path}?${next}>; rel="next"`;
    }
    return { status: 200, body: items, headers };
  }

  const call = (name: string, args: Record<string, unknown>) => conn!.call(name, args);
  /** The suite's connection (after its beforeAll). */
  const connection = () => conn!;
  return { area, home, project, refDir, fake, f: fixtures(fake), env, paged, call, connection };
}
