/**
 * `--github-tools auto` (the default): the GitHub tools are listed only while a token and a GitHub repository
 * (the project's origin, a reference project's URL or origin) exist, and the client is told when that
 * changes. Unlisted tools still answer a call with their own error.
 */
import fs from "node:fs";
import path from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFakeClean, FakeGitHub, fakeGitHubEnv } from "../helpers/fake-github.js";
import { tempArea } from "../helpers/fixtures.js";
import { git, initRepo } from "../helpers/git-repo.js";
import { fixtures } from "../helpers/github-fixtures.js";
import { startServer } from "../helpers/in-process.js";

const area = tempArea();
const fake = new FakeGitHub();
const f = fixtures(fake);
beforeAll(() => fake.start());
expectFakeClean(fake);
afterAll(async () => {
  await fake.close();
  area.cleanup();
});

/** A HOME without ~/.mcp_coder, so only the environment decides the token. */
const home = area.tree("home");
const envWith = (token?: string) => ({ HOME: home, USERPROFILE: home, GITHUB_TOKEN: token ?? "" });

async function gitHubNames(args: string[], token?: string): Promise<string[]> {
  const conn = await startServer(args, { env: envWith(token) });
  try {
    const { tools } = await conn.client.listTools();
    return tools.map((t: { name: string }) => t.name).filter((n: string) => n.startsWith("github_"));
  } finally {
    await conn.close();
  }
}

function project(name: string, origin?: string): string {
  const dir = initRepo(area.tree(name, { "a.txt": "a\n" }));
  if (origin) git(dir, "remote", "add", "origin", origin);
  return dir;
}

describe("GitHub tools in tools/list", () => {
  it("are left out without a token, or without a GitHub repository", async () => {
    const withRemote = project("p1", "https://github.com/o/r.git");
    const noRemote = project("p2");
    expect(await gitHubNames(["--project-dir", withRemote])).toEqual([]);
    expect(await gitHubNames(["--project-dir", noRemote], "t0ken")).toEqual([]);
    // A remote that is not a GitHub repository URL does not count either.
    const other = project("p3", "/srv/git/r.git");
    expect(await gitHubNames(["--project-dir", other], "t0ken")).toEqual([]);
  });

  it("are listed with a token and a GitHub remote, or a reference project's GitHub URL", async () => {
    const withRemote = project("p4", "git@github.com:o/r.git");
    expect(await gitHubNames(["--project-dir", withRemote], "t0ken")).toHaveLength(9);
    const plain = project("p5");
    const urlOnly = ["--reference-project", "name=up,url=https://github.com/o/up"];
    expect(await gitHubNames(["--project-dir", plain, ...urlOnly], "t0ken")).toHaveLength(9);
  });

  it("follow --github-tools always and never", async () => {
    const withRemote = project("p6", "https://github.com/o/r");
    expect(await gitHubNames(["--project-dir", withRemote, "--github-tools", "never"], "t0ken")).toEqual([]);
    expect(await gitHubNames(["--project-dir", project("p7"), "--github-tools", "always"])).toHaveLength(9);
  });

  it("an unlisted GitHub tool still answers a call with what is missing", async () => {
    const conn = await startServer(["--project-dir", project("p8", "https://github.com/o/r")], {
      env: envWith(),
    });
    try {
      const r = await conn.call("github_issue_list", {});
      expect(r.text).toContain("GitHub token not found");
    } finally {
      await conn.close();
    }
  });

  it("appear with notifications/tools/list_changed when a GitHub remote is added while the server runs", async () => {
    const dir = project("p9");
    const conn = await startServer(["--project-dir", dir], { env: fakeGitHubEnv(fake, home) });
    try {
      let changed = 0;
      conn.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      });
      const before = (await conn.client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(before.filter((n: string) => n.startsWith("github_"))).toEqual([]);
      git(dir, "remote", "add", "origin", "https://github.com/o/r.git");
      // The next call notices; the notification follows its reply.
      await conn.call("read_file", { file_path: "a.txt" });
      await expect.poll(() => changed, { timeout: 5000 }).toBe(1);
      const after = (await conn.client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(after.filter((n: string) => n.startsWith("github_"))).toHaveLength(9);
      // Listed because they work: the (fake) GitHub answers for the new remote's repository.
      fake.on("GET /repos/{owner}/{repo}/labels", (r) => {
        expect(r.params).toMatchObject({ owner: "o", repo: "r" });
        return { body: [f.label("bug")] };
      });
      expect((await conn.call("github_label_list", {})).text).toBe("bug  #ededed");
      // And they go again when the remote does.
      git(dir, "remote", "remove", "origin");
      fs.appendFileSync(path.join(dir, "a.txt"), "b\n");
      await conn.call("read_file", { file_path: "a.txt" });
      await expect.poll(() => changed, { timeout: 5000 }).toBe(2);
    } finally {
      await conn.close();
    }
  });
});
