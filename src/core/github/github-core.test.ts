import { describe, expect, it } from "vitest";
import { tempArea } from "../../../test/helpers/fixtures.js";
import { baseBranchFormatError, baseBranchFromBody } from "./base-branch-section.js";
import { apiBaseForHost, parseRepoUrl } from "./repo-url.js";
import { loadGitHubSettings } from "./settings.js";
import { isTrusted } from "./trust.js";

describe("repository URLs and the GitHub Enterprise API base", () => {
  it("parses https, scp-style and ssh remotes", () => {
    const id = { host: "github.com", owner: "octo", repo: "project" };
    for (const u of [
      "https://github.com/octo/project.git",
      "https://user:pw@github.com/octo/project/",
      "git@github.com:octo/project.git",
      "ssh://git@github.com/octo/project",
      "  https://GitHub.com/octo/project  ",
    ])
      expect(parseRepoUrl(u), u).toEqual(id);
    for (const u of [
      "http://github.com/o/r",
      "https://gitlab.com/group/sub/repo",
      "/srv/git/r.git",
      "ext::sh -c x",
      "file:///r",
    ])
      expect(parseRepoUrl(u), u).toBeUndefined();
  });

  it("derives the API base from the host", () => {
    expect(apiBaseForHost("github.com")).toBe("https://api.github.com");
    expect(apiBaseForHost("acme.ghe.com")).toBe("https://api.acme.ghe.com");
    expect(apiBaseForHost("git.corp.example")).toBe("https://git.corp.example/api/v3");
  });
});

describe("settings", () => {
  it("GITHUB_TOKEN wins over the file; trusted_commenters are lower-cased; bad TOML counts as absent", () => {
    const area = tempArea("mcpfs-settings-");
    try {
      const home = area.tree("h", {
        ".mcp_coder/config.toml":
          '[github]\ntoken = "from-file"\ntrusted_commenters = ["Dependabot[bot]", "Alice"]\ntest_repo_url = "https://github.com/a/b"\n',
      });
      const s = loadGitHubSettings({ HOME: home, GITHUB_TOKEN: "from-env" });
      expect(s.token).toBe("from-env");
      expect([...s.trustedCommenters]).toEqual(["dependabot[bot]", "alice"]);
      expect(s.testRepoUrl).toBe("https://github.com/a/b");
      expect(loadGitHubSettings({ HOME: home, GITHUB_TOKEN: "" }).token).toBe("from-file");
      expect(
        loadGitHubSettings({ HOME: home, GITHUB_TEST_REPO_URL: "https://github.com/x/y" }).testRepoUrl,
      ).toBe("https://github.com/x/y");
      const bad = area.tree("bad", { ".mcp_coder/config.toml": "[github\ntoken = " });
      expect(loadGitHubSettings({ HOME: bad }).token).toBeUndefined();
    } finally {
      area.cleanup();
    }
  });
});

describe("commenter trust", () => {
  const allow = new Set(["dependabot[bot]"]);
  it("trusts repository roles and allow-listed logins only", () => {
    for (const a of ["OWNER", "MEMBER", "COLLABORATOR", "owner"]) expect(isTrusted("x", a, allow)).toBe(true);
    for (const a of ["CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "NONE", "MANNEQUIN", null])
      expect(isTrusted("x", a, allow)).toBe(false);
    expect(isTrusted("DependaBot[BOT]", "NONE", allow)).toBe(true);
    expect(isTrusted("dependabot", "NONE", allow)).toBe(false);
  });
});

describe("the Base Branch section", () => {
  it("accepts one line, rejects more, ignores a body without the section", () => {
    expect(baseBranchFormatError("### Base Branch\n\nmain\n\n### Next\na\nb")).toBeUndefined();
    expect(baseBranchFromBody("## base  branch\n`develop`\n")).toBe("develop");
    expect(baseBranchFormatError("no section\nat all")).toBeUndefined();
    expect(baseBranchFormatError("### Base Branch\nmain\ndevelop")).toMatch(/has 2 lines/);
    expect(baseBranchFromBody("### Base Branch\nmain\ndevelop")).toBeUndefined();
  });
});
