/**
 * git stays inside the roots, whatever the repository's own files say: a `.git` file, `commondir`,
 * `objects/info/alternates` or a local remote URL (plain, `file://`, or rewritten by `url.<base>.insteadOf`)
 * that leads to a private repository outside the roots gives nothing of it away, and nothing git writes
 * lands in a read-only reference project. Judged by effect: the private repository's marker text is absent
 * from every reply, no outside path is printed, the reference project's `.git` is byte-identical.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotWithModes, tempArea } from "../helpers/fixtures.js";
import { commit, git, initRepo } from "../helpers/git-repo.js";
import { type Connection, startServer, type TextResult } from "../helpers/in-process.js";

const SECRET = "PRIVATE-MARKER-7f3a9c";
const area = tempArea("mcpfs-git-outside-");
const slash = (p: string) => p.split(path.sep).join("/");

/** The private repository outside every root, and the sha of its commit holding the marker. */
const outside = area.tree("outside");
const privateRepo = initRepo(path.join(outside, "private"));
const secretSha = commit(privateRepo, { "pass.txt": `${SECRET}\n` }, `add ${SECRET}`);
const HOME = area.tree("home");
const ENV = { HOME, XDG_CONFIG_HOME: path.join(HOME, ".config"), GITHUB_TOKEN: "" };

function plainRepo(name: string): string {
  const dir = initRepo(area.tree(name));
  commit(dir, { "readme.txt": "public\n" }, "public commit");
  return dir;
}

/**
 * Neither the marker, nor the private repository's location, nor (unless the call named it) the sha of its
 * commit is in the reply.
 */
function expectNothingOutside(r: TextResult, what: string): void {
  const all = `${r.text}\n${JSON.stringify(r.structured ?? {})}`;
  expect(all, what).not.toContain(SECRET);
  expect(all, what).not.toContain("outside/private");
  if (!what.includes(secretSha)) expect(all, what).not.toContain(secretSha.slice(0, 12));
}

afterAll(() => area.cleanup());

describe("a .git file or alternates that point outside the root", () => {
  let conn: Connection;
  let gitFile: string;
  let alternates: string;
  let commonDir: string;
  beforeAll(async () => {
    // The project is a work tree whose `.git` file names the private repository (relative, as git writes it).
    gitFile = area.tree("gitfile", { "readme.txt": "x\n" });
    fs.writeFileSync(
      path.join(gitFile, ".git"),
      `gitdir: ${slash(path.relative(gitFile, path.join(privateRepo, ".git")))}\n`,
    );
    // A clean repository that borrows the private repository's objects.
    alternates = plainRepo("alternates");
    fs.writeFileSync(
      path.join(alternates, ".git/objects/info/alternates"),
      `${slash(path.relative(path.join(alternates, ".git/objects"), path.join(privateRepo, ".git/objects")))}\n`,
    );
    // Alternates inside the root whose own alternates lead outside (git follows them five deep).
    const chained = area.tree("chained");
    initRepo(chained);
    commit(chained, { "readme.txt": "chained\n" }, "chained commit");
    const hop = path.join(chained, ".git/hop-objects");
    fs.mkdirSync(path.join(hop, "info"), { recursive: true });
    fs.writeFileSync(path.join(hop, "info/alternates"), `${path.join(privateRepo, ".git/objects")}\n`);
    fs.writeFileSync(path.join(chained, ".git/objects/info/alternates"), "../hop-objects\n");
    // A copied tree whose `.git/objects` is a link to the private object store.
    const linked = plainRepo("linked");
    fs.rmSync(path.join(linked, ".git/objects"), { recursive: true });
    fs.symlinkSync(path.join(privateRepo, ".git/objects"), path.join(linked, ".git/objects"), "dir");
    // A linked-worktree layout whose `commondir` leads outside.
    commonDir = plainRepo("commondir");
    fs.writeFileSync(
      path.join(commonDir, ".git/commondir"),
      slash(path.relative(path.join(commonDir, ".git"), path.join(privateRepo, ".git"))),
    );
    conn = await startServer(
      [
        "--project-dir",
        gitFile,
        "--console-only",
        "--reference-project",
        `name=alt,path=${alternates}`,
        "--reference-project",
        `name=common,path=${commonDir}`,
        "--reference-project",
        `name=chained,path=${path.join(area.base, "chained")}`,
        "--reference-project",
        `name=linked,path=${path.join(area.base, "linked")}`,
      ],
      { env: ENV },
    );
  });
  afterAll(() => conn?.close());

  it("a .git file naming an outside repository: no log, show, status or git dir of it", async () => {
    const calls: [string, string[]][] = [
      ["log", ["-p"]],
      ["show", ["HEAD"]],
      ["show", [secretSha]],
      ["ls_tree", ["-r", "HEAD"]],
      ["rev_parse", ["--git-dir"]],
      ["status", []],
      ["branch", ["-a"]],
    ];
    for (const [command, args] of calls) {
      const r = await conn.call("git", { command, args });
      expectNothingOutside(r, `${command} ${args.join(" ")}`);
      expect(r.isError, `${command}: ${r.text}`).toBe(true);
      expect(r.text).toContain("outside the allowed directories");
    }
  });

  it("alternates naming an outside object store: the outside objects are not read", async () => {
    for (const args of [[secretSha], ["-p", secretSha]]) {
      const r = await conn.call("git", { command: "show", args, reference_name: "alt" });
      expectNothingOutside(r, `show ${args.join(" ")}`);
      expect(r.isError).toBe(true);
    }
    const log = await conn.call("git", { command: "log", args: ["-p", secretSha], reference_name: "alt" });
    expectNothingOutside(log, `log -p ${secretSha}`);
  });

  it("alternates inside the root whose own alternates lead outside: refused too", async () => {
    const chained = await conn.call("git", { command: "show", args: [secretSha], reference_name: "chained" });
    expectNothingOutside(chained, `chained show ${secretSha}`);
    expect(chained.isError).toBe(true);
  });

  it("a .git/objects that is a link to an outside object store: refused", async () => {
    const r = await conn.call("git", { command: "show", args: [secretSha], reference_name: "linked" });
    expectNothingOutside(r, `linked show ${secretSha}`);
    expect(r.isError).toBe(true);
  });

  it("a commondir leading outside: refused", async () => {
    for (const [command, args] of [
      ["log", ["-p", "--all"]],
      ["show", [secretSha]],
      ["rev_parse", ["--git-dir"]],
    ] as const) {
      const r = await conn.call("git", { command, args: [...args], reference_name: "common" });
      expectNothingOutside(r, `${command} ${args.join(" ")}`);
      expect(r.isError).toBe(true);
    }
  });
});

describe("a local remote URL outside the root", () => {
  let conn: Connection;
  let project: string;
  beforeAll(async () => {
    project = plainRepo("remotes");
    const rel = slash(path.relative(project, privateRepo));
    git(project, "remote", "add", "plain", rel);
    git(project, "remote", "add", "fileurl", `file://${slash(privateRepo).replace(/^(?=[A-Za-z]:)/, "/")}`);
    // A URL that is only a local path once the repository's own insteadOf rewrites it.
    git(project, "config", `url.${slash(outside)}/.insteadOf`, "vault:");
    git(project, "remote", "add", "rewritten", "vault:private");
    // A remote inside the same root stays usable.
    const inner = initRepo(path.join(project, "vendor/inner"));
    commit(inner, { "lib.txt": "inner\n" }, "inner commit");
    git(project, "remote", "add", "inner", "vendor/inner");
    // A remote inside the root that is only a `.git` file naming the private repository.
    const sneaky = path.join(project, "vendor/sneaky");
    fs.mkdirSync(sneaky, { recursive: true });
    fs.writeFileSync(path.join(sneaky, ".git"), `gitdir: ${slash(path.join(privateRepo, ".git"))}\n`);
    git(project, "remote", "add", "sneaky", "vendor/sneaky");
    conn = await startServer(["--project-dir", project, "--console-only"], { env: ENV });
  });
  afterAll(() => conn?.close());

  for (const remote of ["plain", "fileurl", "rewritten", "sneaky"]) {
    it(`ls_remote, fetch then log FETCH_HEAD of '${remote}': nothing of the private repository`, async () => {
      const replies = [
        await conn.call("git", { command: "ls_remote", args: [remote] }),
        await conn.call("git", { command: "fetch", args: [remote] }),
        await conn.call("git", { command: "log", args: ["-p", "FETCH_HEAD"] }),
        await conn.call("git", { command: "show", args: [secretSha] }),
        await conn.call("git", { command: "log", args: ["-p", "--all"] }),
      ];
      for (const [i, r] of replies.entries())
        expectNothingOutside(r, i === 3 ? `${remote} show ${secretSha}` : `${remote} call ${i}`);
      expect(replies[0]!.isError).toBe(true);
      expect(replies[0]!.text).toContain("outside the allowed directories");
      expect(replies[1]!.isError).toBe(true);
      // Nothing was copied: the project has no object of the private repository.
      expect(() => git(project, "cat-file", "-e", secretSha)).toThrow();
    });
  }

  it("fetch --all is refused while any remote leads outside", async () => {
    const r = await conn.call("git", { command: "fetch", args: ["--all"] });
    expect(r.isError).toBe(true);
    expectNothingOutside(r, "fetch --all");
    expect(() => git(project, "cat-file", "-e", secretSha)).toThrow();
  });

  it("a local remote inside the same root is fetched", async () => {
    const r = await conn.call("git", { command: "fetch", args: ["inner"] });
    expect(r.isError, r.text).toBe(false);
    const log = await conn.call("git", { command: "log", args: ["--oneline", "FETCH_HEAD"] });
    expect(log.text).toContain("inner commit");
  });
});

describe("configuration includes and submodules that point outside the root", () => {
  let conn: Connection;
  beforeAll(async () => {
    // The repository's config includes a file outside the root whose values git would act on and print.
    const included = plainRepo("include-outside");
    fs.writeFileSync(
      path.join(outside, "settings.inc"),
      `[remote "origin"]\n\turl = https://${SECRET}@example.invalid/r.git\n[user]\n\tname = ${SECRET}\n`,
    );
    git(
      included,
      "config",
      "include.path",
      slash(path.relative(path.join(included, ".git"), path.join(outside, "settings.inc"))),
    );
    // A submodule whose `.git` file names the private repository: a diff would print that repository's HEAD.
    const superproject = plainRepo("submodule-outside");
    git(superproject, "update-index", "--add", "--cacheinfo", `160000,${"1".repeat(40)},sub`);
    git(superproject, "commit", "-q", "-m", "add sub");
    fs.mkdirSync(path.join(superproject, "sub"));
    fs.writeFileSync(
      path.join(superproject, "sub", ".git"),
      `gitdir: ${slash(path.relative(path.join(superproject, "sub"), path.join(privateRepo, ".git")))}\n`,
    );
    conn = await startServer(
      ["--project-dir", included, "--console-only", "--reference-project", `name=sub,path=${superproject}`],
      { env: ENV },
    );
  });
  afterAll(() => conn?.close());

  it("an include.path outside the root: no value of the included file in any reply", async () => {
    for (const [command, args] of [
      ["ls_remote", ["--get-url", "origin"]],
      ["log", ["-1", "--format=%an"]],
      ["status", []],
    ] as const) {
      const r = await conn.call("git", { command, args: [...args] });
      expectNothingOutside(r, `${command} ${args.join(" ")}`);
      expect(r.isError, `${command}: ${r.text}`).toBe(true);
      expect(r.text).toContain("outside the allowed directories");
    }
  });

  it("a submodule whose .git file names an outside repository: its HEAD is not printed", async () => {
    for (const [command, args] of [
      ["diff", []],
      ["diff", ["--stat"]],
      ["status", ["--porcelain=v2"]],
      ["status", ["--ignore-submodules=none", "-v"]],
    ] as const) {
      const r = await conn.call("git", { command, args: [...args], reference_name: "sub" });
      expectNothingOutside(r, `${command} ${args.join(" ")}`);
      expect(r.isError, `${command}: ${r.text}`).toBe(false);
    }
  });
});

describe("a read-only reference project", () => {
  let conn: Connection;
  let reference: string;
  beforeAll(async () => {
    // The reference's remote is inside the reference itself (so only the read-only rule can refuse it),
    // and has a commit the reference has not fetched yet.
    reference = plainRepo("reference");
    const upstream = path.join(reference, "upstream.git");
    git(reference, "clone", "-q", "--bare", reference, upstream);
    git(reference, "remote", "add", "origin", "upstream.git");
    const work = path.join(area.base, "upstream-work");
    git(area.base, "clone", "-q", upstream, work);
    git(work, "config", "user.name", "T");
    git(work, "config", "user.email", "t@example.com");
    commit(work, { "new.txt": "new\n" }, "upstream only");
    git(work, "push", "-q", "origin", "HEAD");
    const project = plainRepo("ro-project");
    conn = await startServer(
      ["--project-dir", project, "--console-only", "--reference-project", `name=ref,path=${reference}`],
      { env: ENV },
    );
  });
  afterAll(() => conn?.close());

  it("fetch writes nothing into its .git and says why", async () => {
    const before = snapshotWithModes(path.join(reference, ".git"));
    for (const args of [["origin"], [], ["--all"], ["--dry-run", "origin"], ["--prune", "origin"]]) {
      const r = await conn.call("git", { command: "fetch", args, reference_name: "ref" });
      expect(r.isError, `fetch ${args.join(" ")}: ${r.text}`).toBe(true);
      expect(r.text).toContain("read-only");
      expect(snapshotWithModes(path.join(reference, ".git")), `fetch ${args.join(" ")}`).toEqual(before);
    }
    // Reads still work there, the remote's included.
    const ls = await conn.call("git", { command: "ls_remote", args: ["origin"], reference_name: "ref" });
    expect(ls.isError, ls.text).toBe(false);
    expect(ls.text).toContain("refs/heads/main");
    const log = await conn.call("git", { command: "log", args: ["--oneline"], reference_name: "ref" });
    expect(log.text).toContain("public commit");
    expect(snapshotWithModes(path.join(reference, ".git"))).toEqual(before);
  });
});

describe("the server's environment", () => {
  it("GIT_ALTERNATE_OBJECT_DIRECTORIES and GIT_DIR do not reach git", async () => {
    const project = plainRepo("env-project");
    const conn = await startServer(["--project-dir", project, "--console-only"], {
      env: {
        ...ENV,
        GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(privateRepo, ".git/objects"),
        GIT_DIR: path.join(privateRepo, ".git"),
        GIT_COMMON_DIR: path.join(privateRepo, ".git"),
      },
    });
    try {
      for (const [command, args] of [
        ["show", [secretSha]],
        ["log", ["-p"]],
        ["rev_parse", ["--git-dir"]],
      ] as const)
        expectNothingOutside(
          await conn.call("git", { command, args: [...args] }),
          `${command} ${args.join(" ")}`,
        );
    } finally {
      await conn.close();
    }
  });
});
