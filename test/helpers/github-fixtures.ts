/** GitHub objects for the fake, built from the OpenAPI description's own examples and patched per test. */
import type { FakeGitHub } from "./fake-github.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON fixtures
type Json = any;

export interface Author {
  login: string;
  association: "OWNER" | "MEMBER" | "COLLABORATOR" | "CONTRIBUTOR" | "FIRST_TIME_CONTRIBUTOR" | "NONE";
}

export function fixtures(fake: FakeGitHub, full = "octo/project") {
  const [owner, repo] = full.split("/") as [string, string];
  const api = `https://api.github.com/repos/${full}`;
  const user = (login: string): Json => ({ ...fake.example("simple-user"), login });
  const label = (name: string, description: string | null = null, color = "ededed"): Json => ({
    ...fake.example("label"),
    name,
    description,
    color,
  });
  const issue = (
    n: number,
    o: Partial<{
      title: string;
      body: string | null;
      labels: string[];
      assignees: string[];
      author: Author;
      state: string;
      repoFull: string;
      pr: boolean;
    }> = {},
  ): Json => {
    const base = fake.example("issue");
    const author = o.author ?? { login: "octocat", association: "OWNER" };
    const r = o.repoFull ?? full;
    const out: Json = {
      ...base,
      number: n,
      title: o.title ?? `Issue ${n}`,
      body: o.body === undefined ? `Body of ${n}` : o.body,
      state: o.state ?? "open",
      labels: (o.labels ?? []).map((l) => label(l)),
      assignees: (o.assignees ?? []).map(user),
      assignee: o.assignees?.[0] ? user(o.assignees[0]) : null,
      user: user(author.login),
      author_association: author.association,
      repository_url: `https://api.github.com/repos/${r}`,
      url: `https://api.github.com/repos/${r}/issues/${n}`,
      html_url: `https://github.com/${r}/issues/${n}`,
    };
    if (!o.pr) delete out.pull_request;
    return out;
  };
  const comment = (author: Author, body: string, id = 1): Json => ({
    ...fake.example("issue-comment"),
    id,
    body,
    user: user(author.login),
    author_association: author.association,
    created_at: "2026-01-02T03:04:05Z",
    html_url: `https://github.com/${full}/issues/1#issuecomment-${id}`,
  });
  const pull = (
    n: number,
    o: Partial<{
      title: string;
      body: string | null;
      head: string;
      base: string;
      author: Author;
      draft: boolean;
      merged: boolean;
      mergeable: boolean | null;
      mergeableState: string;
    }> = {},
  ): Json => {
    const base = fake.example("pull-request");
    const author = o.author ?? { login: "octocat", association: "OWNER" };
    return {
      ...base,
      number: n,
      title: o.title ?? `PR ${n}`,
      body: o.body === undefined ? `PR body ${n}` : o.body,
      state: "open",
      draft: o.draft ?? false,
      merged: o.merged ?? false,
      mergeable: o.mergeable === undefined ? true : o.mergeable,
      mergeable_state: o.mergeableState ?? "clean",
      requested_teams: [],
      user: user(author.login),
      author_association: author.association,
      head: { ...base.head, ref: o.head ?? "feature" },
      base: { ...base.base, ref: o.base ?? "main" },
      html_url: `https://github.com/${full}/pull/${n}`,
    };
  };
  const pullSimple = (n: number, head: string, base = "main"): Json => {
    const b = fake.example("pull-request-simple");
    return {
      ...b,
      number: n,
      requested_teams: [],
      head: { ...b.head, ref: head },
      base: { ...b.base, ref: base },
    };
  };
  const review = (author: Author, state: string, body: string, id = 1): Json => ({
    ...fake.example("pull-request-review"),
    id,
    state,
    body,
    user: user(author.login),
    author_association: author.association,
  });
  const reviewComment = (author: Author, file: string, line: number, body: string, id = 1): Json => ({
    ...fake.example("pull-request-review-comment"),
    id,
    path: file,
    line,
    body,
    user: user(author.login),
    author_association: author.association,
  });
  const searchItem = (
    n: number,
    title: string,
    o: { pr?: boolean; state?: string; labels?: string[] } = {},
  ): Json => {
    const b = fake.example("issue-search-result-item-paginated").items[0];
    const out = {
      ...b,
      number: n,
      title,
      state: o.state ?? "open",
      labels: (o.labels ?? []).map((l) => label(l)),
    };
    if (!o.pr) delete out.pull_request;
    return out;
  };
  const repository = (): Json => {
    const r = fake.example("full-repository");
    return {
      ...r,
      language: null,
      source: { ...r.source, language: null },
      parent: { ...r.parent, language: null },
      name: repo,
      full_name: full,
      owner: user(owner),
    };
  };
  const run = (id: number, sha: string, status: string, conclusion: string | null): Json => {
    const r = fake.example("workflow-run-paginated").workflow_runs[0];
    return {
      ...r,
      id,
      head_sha: sha,
      status,
      conclusion,
      html_url: `https://github.com/${full}/actions/runs/${id}`,
    };
  };
  const job = (
    id: number,
    runId: number,
    name: string,
    conclusion: string | null,
    failedStep?: string,
  ): Json => {
    const j = fake.example("job-paginated").jobs[0];
    return {
      ...j,
      id,
      run_id: runId,
      name,
      status: "completed",
      conclusion,
      created_at: "2026-01-01T00:00:00Z",
      steps: [
        { name: "Set up job", status: "completed", conclusion: "success", number: 1 },
        {
          name: failedStep ?? "Run tests",
          status: "completed",
          conclusion: failedStep ? "failure" : "success",
          number: 2,
        },
      ],
    };
  };
  return {
    owner,
    repo,
    full,
    api,
    user,
    label,
    issue,
    comment,
    pull,
    pullSimple,
    review,
    reviewComment,
    searchItem,
    repository,
    run,
    job,
  };
}
