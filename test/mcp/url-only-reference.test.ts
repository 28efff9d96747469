/**
 * Workspace surface: a reference project given by URL only (path missing, or no path key) is accepted at
 * startup and never cloned; the GitHub tools reach its repository through `reference_name`, while the file
 * tools and git() refuse it with a clear "no local copy" error. Black-box, against the OpenAPI-checked fake.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFakeClean, FakeGitHub, fakeGitHubEnv } from "../helpers/fake-github.js";
import { tempArea } from "../helpers/fixtures.js";
import { commit, git, initRepo } from "../helpers/git-repo.js";
import { fixtures } from "../helpers/github-fixtures.js";
import { type Connection, startServer } from "../helpers/in-process.js";

const area = tempArea("mcpfs-urlref-");
const home = area.tree("home", {});
const project = initRepo(path.join(area.base, "project"));
commit(project, { "README.md": "hi\n" }, "init");
git(project, "remote", "add", "origin", "https://github.com/octo/project.git");
const localRef = area.tree("local", { "x.txt": "x\n" });
const missing = path.join(area.base, "not-cloned");

const fake = new FakeGitHub();
const up = fixtures(fake, "upstream-org/upstream");
let conn: Connection;

beforeAll(async () => {
  await fake.start();
  conn = await startServer(
    [
      "--project-dir",
      project,
      "--console-only",
      "--reference-project",
      `name=up,path=${missing},url=https://github.com/upstream-org/upstream`,
      // No path key at all: the URL alone names the project.
      "--reference-project",
      "name=bare,url=git@github.com:bare-org/bare.git",
      // Same name as a URL-only one: renamed like any duplicate.
      "--reference-project",
      `name=up,path=${localRef}`,
      // Missing path and no URL: still skipped with the warning.
      "--reference-project",
      `name=gone,path=${path.join(area.base, "gone")}`,
    ],
    { env: fakeGitHubEnv(fake, home) },
  );
});
expectFakeClean(fake);
afterAll(async () => {
  await conn.close();
  await fake.close();
  area.cleanup();
});

const noLocalCopy = (name: string, url: string) =>
  `Reference project '${name}' is a URL-only reference project (${url}) with no local copy: ` +
  "the reference file tools and git() need a local directory; the GitHub tools accept it as reference_name";

describe("startup", () => {
  it("accepts URL-only references, lists them with their URL, and skips a missing path without URL", async () => {
    const r = await conn.call("get_reference_projects");
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({
      count: 3,
      projects: [
        { name: "bare", url: "git@github.com:bare-org/bare.git" },
        { name: "up", url: "https://github.com/upstream-org/upstream" },
        { name: "up_2", url: null },
      ],
    });
    const log = conn.stderr();
    expect(log).toContain("Reference project 'up' set to URL only: https://github.com/upstream-org/upstream");
    expect(log).toContain(
      `Reference project path does not exist: name=gone, path=${path.join(area.base, "gone")}`,
    );
    expect(log).not.toContain("name=up,");
  });
});

describe("GitHub tools with a URL-only reference_name", () => {
  it("github_issue_view reads the reference's repository", async () => {
    fake.on("GET /repos/{owner}/{repo}/issues/{issue_number}", (r) => {
      expect(`${r.params.owner}/${r.params.repo}`).toBe("upstream-org/upstream");
      return { body: up.issue(9, { title: "Upstream bug", body: "Broken." }) };
    });
    const r = await conn.call("github_issue_view", {
      number: 9,
      include_comments: false,
      reference_name: "up",
    });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/^# #9: Upstream bug\n/);
    expect(fake.calls()).toEqual(["GET /repos/upstream-org/upstream/issues/9"]);
    // Resolved from the URL alone: nothing was cloned to the configured path.
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("github_issue_list and github_label_list read it; github_search is scoped to it", async () => {
    fake.on("GET /repos/{owner}/{repo}/issues", () => ({ body: [up.issue(1, { title: "One" })] }));
    expect((await conn.call("github_issue_list", { reference_name: "up" })).text).toBe("#1 [open] One");
    fake.on("GET /repos/{owner}/{repo}/labels", () => ({ body: [up.label("bug")] }));
    expect((await conn.call("github_label_list", { reference_name: "bare" })).text).toBe("bug  #ededed");
    fake.on("GET /search/issues", (r) => {
      expect(r.query.get("q")).toBe("repo:upstream-org/upstream is:issue crash");
      return {
        body: {
          total_count: 1,
          incomplete_results: false,
          search_type: "lexical",
          items: [up.searchItem(4, "Crash")],
        },
      };
    });
    expect((await conn.call("github_search", { query: "crash", reference_name: "up" })).text).toBe(
      "Showing 1 of 1 results for: repo:upstream-org/upstream is:issue crash\n#4 [Issue] [open] Crash",
    );
    expect(fake.calls()).toEqual([
      "GET /repos/upstream-org/upstream/issues",
      "GET /repos/bare-org/bare/labels",
      "GET /search/issues",
    ]);
  });

  it("github_issue_comment writes to it (scp-style URL)", async () => {
    fake.on("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", (r) => {
      expect(`${r.params.owner}/${r.params.repo}`).toBe("bare-org/bare");
      return {
        status: 201,
        body: {
          ...up.comment({ login: "octocat", association: "OWNER" }, "Same here", 5),
          html_url: "https://github.com/bare-org/bare/issues/3#issuecomment-5",
        },
      };
    });
    expect(
      (await conn.call("github_issue_comment", { number: 3, body: "Same here", reference_name: "bare" }))
        .text,
    ).toBe("Added comment to issue #3 — https://github.com/bare-org/bare/issues/3#issuecomment-5");
  });

  it("an unknown name is still refused", async () => {
    expect((await conn.call("github_issue_view", { number: 1, reference_name: "nope" })).text).toBe(
      "Error: Reference project 'nope' not found",
    );
  });
});

describe("file tools and git() on a URL-only reference", () => {
  const url = "https://github.com/upstream-org/upstream";
  it.each([
    ["list_reference_directory", { reference_name: "up" }],
    ["read_reference_file", { reference_name: "up", file_path: "README.md" }],
    ["search_reference_files", { reference_name: "up", pattern: "x" }],
    ["git", { command: "log", reference_name: "up" }],
  ])("%s says it has no local copy", async (tool, args) => {
    const r = await conn.call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toBe(`Error executing tool ${tool}: ${noLocalCopy("up", url)}`);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it("the local reference renamed up_2 still works", async () => {
    const r = await conn.call("read_reference_file", { reference_name: "up_2", file_path: "x.txt" });
    expect(r.text).toBe("x\n");
  });
});
