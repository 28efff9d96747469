/** The GitHub write tools (github-tools.test.ts has the reads, the failures and the configuration). */
import { describe, expect, it } from "vitest";
import { git } from "../helpers/git-repo.js";
import { githubSuite, OWNER } from "../helpers/github-suite.js";

const { project, fake, f, paged, call } = githubSuite();

describe("write tools", () => {
  const labels = () =>
    fake.on("GET /repos/{owner}/{repo}/labels", (r) =>
      paged(r, [f.label("bug"), f.label("Feature", "New things"), f.label("docs")]),
    );

  it("github_issue_create posts the issue and echoes labels and assignees", async () => {
    labels();
    fake.on("GET /user", () => ({ body: { ...fake.example("private-user"), login: "me-myself" } }));
    fake.on("POST /repos/{owner}/{repo}/issues", (r) => {
      expect(r.body).toEqual({
        title: "New bug",
        body: "Body",
        labels: ["bug", "feature"],
        assignees: ["me-myself"],
      });
      return {
        status: 201,
        body: f.issue(42, { title: "New bug", labels: ["bug", "Feature"], assignees: ["me-myself"] }),
      };
    });
    const r = await call("github_issue_create", {
      title: "  New bug ",
      body: "Body",
      labels: ["bug", "feature"],
      assignees: ["@me"],
    });
    expect(r.text).toBe(
      "Created issue #42 — https://github.com/octo/project/issues/42\nLabels: bug, Feature\nAssignees: me-myself",
    );
  });

  it("rejects status-* labels and unknown labels before writing anything", async () => {
    labels();
    const s = await call("github_issue_create", { title: "x", labels: ["Status-06:implementing"] });
    expect(s.text).toBe(
      "Error: these tools do not modify status-* labels (Status-06:implementing). Use: mcp-coder gh-tool set-status <label>",
    );
    const e = await call("github_issue_edit", { number: 1, remove_labels: ["status-01:created"] });
    expect(e.text).toContain("Error: these tools do not modify status-* labels (status-01:created).");
    const u = await call("github_issue_create", { title: "x", labels: ["bug", "nope", "Nada"] });
    expect(u.text).toBe("Error: unknown label(s): nope, Nada");
    expect(fake.calls().filter((c) => !c.startsWith("GET"))).toEqual([]);
  });

  it("enforces a one-line Base Branch section on create and edit", async () => {
    const bad = "## Summary\nx\n\n### Base Branch\nmain\nand also develop\n\n### Notes\n";
    const r = await call("github_issue_create", { title: "x", body: bad });
    expect(r.text).toMatch(
      /^Error: the '### Base Branch' section must hold exactly one line .* but it has 2 lines/,
    );
    const e = await call("github_issue_edit", { number: 3, body: bad });
    expect(e.text).toMatch(/^Error: the '### Base Branch' section must hold exactly one line/);
    expect(fake.calls()).toEqual([]);
    fake.on("POST /repos/{owner}/{repo}/issues", () => ({ status: 201, body: f.issue(8) }));
    const ok = await call("github_issue_create", {
      title: "x",
      body: "### Base Branch\n\nrelease/1.2\n\n### Next\nmore\nlines",
    });
    expect(ok.text).toMatch(/^Created issue #8 — /);
  });

  it("github_issue_edit applies each change once, in order, and reports the result", async () => {
    labels();
    let current = f.issue(3, { labels: ["docs", "bug"] });
    fake.on("GET /repos/{owner}/{repo}/issues/{issue_number}", () => ({ body: current }));
    fake.on("PATCH /repos/{owner}/{repo}/issues/{issue_number}", (r) => {
      expect(r.body).toEqual({ title: "Better title", state: "closed" });
      current = { ...current, title: "Better title", state: "closed" };
      return { body: current };
    });
    fake.on("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", (r) => {
      expect(r.body).toEqual({ labels: ["feature"] });
      current = { ...current, labels: [...current.labels, f.label("Feature")] };
      return { body: current.labels };
    });
    fake.on("DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", (r) => {
      expect(r.params.name).toBe("docs");
      current = { ...current, labels: current.labels.filter((l: { name: string }) => l.name !== "docs") };
      return { body: current.labels };
    });
    const r = await call("github_issue_edit", {
      number: 3,
      title: " Better title ",
      state: "closed",
      add_labels: ["feature"],
      remove_labels: ["DOCS", "absent"],
    });
    expect(r.text).toBe(
      "Updated issue #3 — https://github.com/octo/project/issues/3 (state: closed)\nLabels: bug, Feature\nAssignees: (none)",
    );
    expect(fake.calls()).toEqual([
      "GET /repos/octo/project/labels",
      "GET /repos/octo/project/labels",
      "GET /repos/octo/project/issues/3",
      "PATCH /repos/octo/project/issues/3",
      "POST /repos/octo/project/issues/3/labels",
      "DELETE /repos/octo/project/issues/3/labels/docs",
      "GET /repos/octo/project/issues/3",
    ]);
  });

  it("github_issue_edit reports a partial failure exactly", async () => {
    labels();
    let current = f.issue(3);
    fake.on("GET /repos/{owner}/{repo}/issues/{issue_number}", () => ({ body: current }));
    fake.on("PATCH /repos/{owner}/{repo}/issues/{issue_number}", () => {
      current = { ...current, title: "New" };
      return { body: current };
    });
    fake.on("POST /repos/{owner}/{repo}/issues/{issue_number}/labels", () => ({
      status: 422,
      body: {
        message: "Validation Failed",
        errors: [{ resource: "Label", code: "invalid", field: "labels" }],
        documentation_url: "https://docs.github.com/rest",
      },
    }));
    const r = await call("github_issue_edit", { number: 3, title: "New", add_labels: ["bug"] });
    expect(r.text.split("\n").slice(0, 4)).toEqual([
      "Warning: edit partially failed (Validation Failed) — resulting state below",
      "Applied: title",
      "Not applied: add_labels",
      "Updated issue #3 — https://github.com/octo/project/issues/3 (state: open)",
    ]);
  });

  it("github_issue_comment strips the body and links the comment", async () => {
    fake.on("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", (r) => {
      expect(r.body).toEqual({ body: "Thanks!" });
      return { status: 201, body: f.comment(OWNER, "Thanks!", 77) };
    });
    expect((await call("github_issue_comment", { number: 1, body: "  Thanks!\n" })).text).toBe(
      "Added comment to issue #1 — https://github.com/octo/project/issues/1#issuecomment-77",
    );
    expect((await call("github_issue_comment", { number: 1, body: "  " })).text).toBe(
      "Error: Comment body cannot be empty",
    );
  });

  it("github_label_list filters by name or description", async () => {
    labels();
    expect((await call("github_label_list", { search: "new" })).text).toBe("Feature  #ededed  New things");
    labels();
    expect((await call("github_label_list", {})).text).toBe(
      "bug  #ededed\nFeature  #ededed  New things\ndocs  #ededed",
    );
  });

  it("github_pr_create defaults head to the current branch and base to the default branch", async () => {
    git(project, "checkout", "-q", "-b", "12-feature");
    try {
      fake.on("POST /repos/{owner}/{repo}/pulls", (r) => {
        expect(r.body).toEqual({ title: "Feature", body: "", head: "12-feature", base: "main" });
        return { status: 201, body: f.pull(13) };
      });
      expect((await call("github_pr_create", { title: "Feature" })).text).toBe(
        "Created PR #13 — https://github.com/octo/project/pull/13",
      );
      expect((await call("github_pr_create", { title: "x", base: "12-feature" })).text).toBe(
        "Error: head and base are the same branch (12-feature)",
      );
      expect((await call("github_pr_create", { title: "x", base: "bad..name" })).text).toBe(
        "Error: invalid branch name: bad..name",
      );
    } finally {
      git(project, "checkout", "-q", "main");
    }
  });
});
