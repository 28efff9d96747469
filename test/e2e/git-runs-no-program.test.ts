/**
 * The read-only `git` tool never runs a program that a repository's configuration names — in the project
 * and in a reference project — while the user's own (global) configuration keeps working. Judged by effect:
 * each planted program would create a marker file; none may appear, whatever git answers. The only network
 * is loopback (an HTTP server here, closed ports for ssh:// and git://).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempArea } from "../helpers/fixtures.js";
import { addBareRemote, commit, git, initRepo, innerRemotePath } from "../helpers/git-repo.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-git-noexec-");
const bin = area.tree("bin");
const markers = area.tree("markers");
const home = area.tree("home");
const trustedMarker = path.join(area.base, "trusted-lfs-ran");
const CLOSED = "127.0.0.1:9"; // discard port: nothing listens, nothing leaves the machine

/** A program that leaves `markers/<name>` when run (and fails, as a hostile one may). */
function program(name: string): string {
  const p = path.join(bin, name);
  fs.writeFileSync(p, `#!/bin/sh\ntouch '${path.join(markers, name)}'\nexit 1\n`, { mode: 0o755 });
  return p;
}
const ran = (prefix: string) => fs.readdirSync(markers).filter((m) => m.startsWith(`${prefix}-`));
/** Forgets what earlier tests saw, so each test judges only its own calls. */
const forget = (prefix: string) => {
  for (const m of ran(prefix)) fs.rmSync(path.join(markers, m));
};

// The user's own configuration: an LFS-style filter (passes content through, leaves a marker).
const lfs = path.join(bin, "trusted-lfs");
fs.writeFileSync(lfs, `#!/bin/sh\ntouch '${trustedMarker}'\ncat\n`, { mode: 0o755 });
fs.writeFileSync(path.join(home, ".gitconfig"), `[filter "lfs"]\n\tclean = ${lfs}\n\tsmudge = ${lfs}\n`);

// Loopback HTTP: /auth asks for credentials (git then runs credential helpers); /cookie sets a cookie.
const web = http.createServer((req, res) => {
  if (req.url?.startsWith("/auth/")) {
    res.writeHead(401, { "www-authenticate": 'Basic realm="x"' });
    res.end();
    return;
  }
  res.writeHead(200, { "content-type": "text/plain", "set-cookie": "sid=1; Path=/" });
  res.end("");
});

interface Hostile {
  dir: string;
  tag: string;
  cookieJar: string;
  /** Gives the remote a commit the repository lacks, so the next fetch negotiates. */
  remoteCommit(): void;
}

/** A repository whose config, includes, worktree config and submodule name programs for every vector. */
function hostileRepo(tag: string, port: number): Hostile {
  const dir = initRepo(path.join(area.base, tag));
  commit(
    dir,
    {
      ".gitattributes": [
        "*.evil filter=evil diff=evil",
        "*.evp filter=evilp",
        "*.inc filter=inc",
        "*.onb filter=onb",
        "*.wt filter=wt",
        "*.lfs filter=lfs",
        "",
      ].join("\n"),
      "a.evil": "one\n",
      "b.evp": "b\n",
      "c.inc": "c\n",
      "d.onb": "d\n",
      "e.wt": "e\n",
      "f.lfs": "large\n",
    },
    "first",
  );
  commit(dir, { "a.evil": "two\n" }, "second");
  // A commit with a (bogus) signature: showing its signature means running gpg.
  const tree = git(dir, "rev-parse", "HEAD^{tree}").trim();
  const signed = `tree ${tree}\nauthor A <a@b> 1 +0000\ncommitter A <a@b> 1 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\nsigned\n`;
  const objects = path.join(area.base, `${tag}-signed.txt`);
  fs.writeFileSync(objects, signed);
  git(dir, "update-ref", "refs/heads/signed", git(dir, "hash-object", "-t", "commit", "-w", objects).trim());
  // A submodule whose own config names a filter for its own file.
  const subSrc = initRepo(path.join(area.base, `${tag}-subsrc`));
  commit(subSrc, { ".gitattributes": "* filter=sub\n", "s.txt": "s\n" }, "sub");
  git(dir, "-c", "protocol.file.allow=always", "submodule", "--quiet", "add", subSrc, "sm");
  git(dir, "commit", "-q", "-m", "add submodule");
  // origin with a commit only it has; an alternate object store for core.alternateRefsCommand.
  const bare = innerRemotePath(dir, "origin.git");
  addBareRemote(dir, bare);
  const other = path.join(area.base, `${tag}-other`);
  git(area.base, "clone", "-q", bare, other);
  let n = 0;
  const remoteCommit = () => {
    commit(other, { [`r${n}.txt`]: `${n}\n` }, `remote ${n++}`);
    git(other, "push", "-q", "origin", "HEAD:refs/heads/main");
  };
  remoteCommit();
  const alt = initRepo(innerRemotePath(dir, "alt"));
  commit(alt, { "alt.txt": "alt\n" }, "alt");
  fs.writeFileSync(path.join(dir, ".git/objects/info/alternates"), `${path.join(alt, ".git/objects")}\n`);

  // Everything below is the repository's own configuration, planted after the commits above.
  const set = (key: string, value: string) => git(dir, "config", key, value);
  set("filter.evil.clean", program(`${tag}-clean`));
  set("filter.evil.smudge", program(`${tag}-smudge`));
  set("filter.evilp.process", program(`${tag}-process`));
  set("filter.lfs.clean", program(`${tag}-lfs-hijack`));
  set("diff.evil.textconv", program(`${tag}-textconv`));
  set("diff.evil.command", program(`${tag}-diff-command`));
  set("diff.external", program(`${tag}-diff-external`));
  // gpg.openpgp.program wins over gpg.program: one repository plants each.
  set(tag === "proj" ? "gpg.program" : "gpg.openpgp.program", program(`${tag}-gpg`));
  set("log.showSignature", "true");
  set("format.pretty", "%h %G?");
  set("pretty.sig", "%G? %s");
  set("core.sshCommand", program(`${tag}-ssh-command`));
  set("remote.sshr.url", `ssh://git@${CLOSED}/x.git`);
  set("core.gitProxy", program(`${tag}-git-proxy`));
  set("remote.gitr.url", `git://${CLOSED}/x.git`);
  set("credential.helper", `!${program(`${tag}-credential-helper`)}`);
  set(`credential.http://127.0.0.1:${port}.helper`, `!${program(`${tag}-credential-url-helper`)}`);
  set("core.askPass", program(`${tag}-askpass`));
  set("remote.httpr.url", `http://127.0.0.1:${port}/auth/x.git`);
  const cookieJar = path.join(area.base, `${tag}-cookie-jar-outside`);
  set("http.cookieFile", cookieJar);
  set("http.saveCookies", "true");
  set("remote.cookier.url", `http://127.0.0.1:${port}/cookie/x.git`);
  set("protocol.ext.allow", "always");
  set("remote.extr.url", `ext::${program(`${tag}-ext-transport`)}`);
  set("core.alternateRefsCommand", program(`${tag}-alternate-refs`));
  set("core.fsmonitor", program(`${tag}-fsmonitor`));
  const hooks = area.tree(`${tag}-hooks`);
  fs.copyFileSync(program(`${tag}-hook`), path.join(hooks, "reference-transaction"));
  fs.chmodSync(path.join(hooks, "reference-transaction"), 0o755);
  set("core.hooksPath", hooks);
  set("core.pager", program(`${tag}-pager`));
  set("pager.log", program(`${tag}-pager-log`));
  fs.writeFileSync(
    path.join(dir, ".git/hostile.inc"),
    `[filter "inc"]\n\tclean = ${program(`${tag}-include`)}\n`,
  );
  set("include.path", "hostile.inc");
  fs.writeFileSync(
    path.join(dir, ".git/onbranch.inc"),
    `[filter "onb"]\n\tclean = ${program(`${tag}-includeif`)}\n`,
  );
  set("includeIf.onbranch:main.path", "onbranch.inc");
  set("core.repositoryformatversion", "1");
  set("extensions.worktreeConfig", "true");
  git(dir, "config", "--worktree", "filter.wt.clean", program(`${tag}-worktree-config`));
  git(path.join(dir, "sm"), "config", "filter.sub.clean", program(`${tag}-submodule-filter`));
  // A fetch that recursed into the submodule would use the submodule's own remote and ssh command.
  set("submodule.sm.fetchRecurseSubmodules", "true");
  git(path.join(dir, "sm"), "config", "remote.origin.url", `ssh://git@${CLOSED}/sub.git`);
  git(path.join(dir, "sm"), "config", "core.sshCommand", program(`${tag}-submodule-fetch`));
  return { dir, tag, cookieJar, remoteCommit };
}

/** The test's own git, with the planted filters emptied (it may touch the index, which re-reads files). */
const inert = (dir: string, ...args: string[]) =>
  git(
    dir,
    ...[
      "evil.clean",
      "evil.smudge",
      "evilp.process",
      "lfs.clean",
      "inc.clean",
      "onb.clean",
      "wt.clean",
    ].flatMap((k) => ["-c", `filter.${k}=`]),
    ...args,
  );

/** Gives every tracked worktree file a new mtime, so git must re-read (and filter) its content. */
function touchAll(dir: string): void {
  const t = new Date(Date.now() + 5_000);
  for (const f of ["a.evil", "b.evp", "c.inc", "d.onb", "e.wt", "f.lfs", "sm/s.txt"])
    fs.utimesSync(path.join(dir, f), t, t);
}

let project: Hostile;
let reference: Hostile;
let conn: Connection;
beforeAll(async () => {
  await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
  const port = (web.address() as AddressInfo).port;
  project = hostileRepo("proj", port);
  reference = hostileRepo("ref", port);
  conn = await startServer(
    ["--project-dir", project.dir, "--console-only", "--reference-project", `name=ref,path=${reference.dir}`],
    { env: { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), GITHUB_TOKEN: "" } },
  );
});
afterAll(async () => {
  await conn?.close();
  await new Promise((r) => web.close(r));
  area.cleanup();
});

type Call = [command: string, args?: string[], pathspec?: string[]];
const onFile = (file: string): Call[] => [
  ["status", [], [file]],
  ["status", ["--short"], [file]],
  ["status", ["--porcelain"], [file]],
  ["diff", [], [file]],
  ["diff", ["--stat"], [file]],
  ["ls_files", ["-m"], [file]],
];
const transport = (remote: string): Call[] => [
  ["ls_remote", [remote]],
  ["fetch", [remote]],
];

/** Each vector alone (a failing filter can stop git before the next file), with the calls that reach it. */
const VECTORS: [string, Call[]][] = [
  ["filter.<driver>.clean named in .gitattributes, defined in .git/config", onFile("a.evil")],
  ["filter.<driver>.process", onFile("b.evp")],
  ["a filter defined in a file that include.path pulls in", onFile("c.inc")],
  ["a filter defined in a file that includeIf pulls in", onFile("d.onb")],
  ["a filter defined in the worktree config", onFile("e.wt")],
  ["a filter defined in a submodule's own config", onFile("sm")],
  [
    "gpg.program / gpg.openpgp.program via log.showSignature, format.pretty and a pretty alias",
    [
      ["log", ["-1", "signed"]],
      ["log", ["-3"]],
      ["show", ["--stat", "signed"]],
      ["log", ["-1", "--format=sig", "signed"]],
      ["log", ["-1", "--format=%G?", "signed"]],
      ["log", ["-1", "--pretty=format:%GS", "signed"]],
      ["show", ["--format=%GK", "signed"]],
    ],
  ],
  ["core.sshCommand", transport("sshr")],
  ["core.gitProxy", transport("gitr")],
  // With the transports the repository may not enable either (ext::, askpass were closed before).
  [
    "credential.helper, credential.<url>.helper, core.askPass, ext::",
    [...transport("httpr"), ...transport("extr")],
  ],
];

describe.each([
  ["the project", () => project, {}],
  ["a reference project", () => reference, { reference_name: "ref" }],
])("git in %s runs no program its configuration names", (_label, repo, where) => {
  const run = (command: string, args: string[] = [], pathspec?: string[]) =>
    conn.call("git", { command, args, ...(pathspec ? { pathspec } : {}), ...where });

  it.each(VECTORS)("%s", async (_vector, calls) => {
    const { dir, tag } = repo();
    forget(tag);
    for (const [command, args, pathspec] of calls) {
      touchAll(dir);
      await run(command, args, pathspec);
    }
    expect(ran(tag)).toEqual([]);
  });

  it("diff.<driver>.textconv (and the smudge filter it applies), diff.<driver>.command, diff.external", async () => {
    const { dir, tag } = repo();
    forget(tag);
    // Stage a change to a.evil without running anything: a blob written as is, then put in the index.
    const blob = path.join(area.base, `${tag}-staged.txt`);
    fs.writeFileSync(blob, "three\n");
    const sha = git(dir, "hash-object", "-w", "--no-filters", blob).trim();
    inert(dir, "update-index", "--cacheinfo", `100644,${sha},a.evil`);
    try {
      await run("status", ["-v"], ["a.evil"]);
      await run("status", ["-v", "-v"], ["a.evil"]);
      await run("diff", ["--staged"]);
      await run("diff", ["HEAD~2", "HEAD~1"]);
      await run("log", ["-p", "-3"]);
      await run("show", ["HEAD~1"]);
    } finally {
      inert(
        dir,
        "update-index",
        "--cacheinfo",
        `100644,${git(dir, "rev-parse", "HEAD:a.evil").trim()},a.evil`,
      );
    }
    expect(ran(tag)).toEqual([]);
  });

  it("%G placeholders are refused: they make git run gpg", async () => {
    const r = await run("log", ["-1", "--format=%h %G?", "signed"]);
    expect(r.isError).toBe(true);
    expect(r.text).toContain("%G placeholders verify signatures by running gpg");
  });

  it("http.cookieFile: git writes no cookie jar where the repository says", async () => {
    const { cookieJar } = repo();
    await run("ls_remote", ["cookier"]);
    await run("fetch", ["cookier"]);
    expect(fs.existsSync(cookieJar)).toBe(false);
  });

  it("the user's global LFS-style filter still runs and the status is clean; the repository cannot hijack it", async () => {
    const { dir, tag } = repo();
    forget(tag);
    fs.rmSync(trustedMarker, { force: true });
    touchAll(dir);
    const r = await run("status", ["--short"], ["f.lfs"]);
    expect(r.isError).toBe(false);
    expect(r.text).toBe("No changes found");
    expect(fs.existsSync(trustedMarker)).toBe(true);
    expect(ran(tag)).toEqual([]);
  });

  it("fetch from origin works (refused in a read-only reference); core.alternateRefsCommand, a submodule's remote, hooks, fsmonitor, pager run nothing", async () => {
    const { dir, tag, remoteCommit } = repo();
    forget(tag);
    remoteCommit();
    const before = git(dir, "rev-parse", "refs/remotes/origin/main");
    const r = await run("fetch", ["origin"]);
    const readOnly = "reference_name" in where;
    expect(r.isError, r.text).toBe(readOnly);
    if (readOnly) expect(r.text).toContain("read-only");
    expect(git(dir, "rev-parse", "refs/remotes/origin/main") === before).toBe(readOnly);
    remoteCommit();
    await run("fetch", ["--all"]);
    await run("ls_remote", ["origin"]);
    await run("log", ["-1"]);
    expect(ran(tag)).toEqual([]);
  });
});

describe("a repository that sets remote.<r>.uploadpack (read first-wins, so it cannot be overruled)", () => {
  const area2 = tempArea("mcpfs-git-uploadpack-");
  let c: Connection;
  const marker = path.join(area2.base, "upload-pack-ran");
  const repos = ["proj", "ref"].map((name) => {
    const dir = initRepo(path.join(area2.base, name));
    commit(dir, { "x.txt": "x\n" }, "x");
    addBareRemote(dir, path.join(area2.base, `${name}.git`));
    const p = path.join(area2.base, `${name}-upload-pack`);
    fs.writeFileSync(p, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
    git(dir, "config", "remote.origin.uploadpack", p);
    return dir;
  });
  beforeAll(async () => {
    c = await startServer(
      ["--project-dir", repos[0]!, "--console-only", "--reference-project", `name=ref,path=${repos[1]}`],
      { env: { HOME: home, GITHUB_TOKEN: "" } },
    );
  });
  afterAll(async () => {
    await c?.close();
    area2.cleanup();
  });

  it.each([[{}], [{ reference_name: "ref" }]])(
    "is refused with the key named, and nothing runs (%j)",
    async (where) => {
      for (const [command, args] of [
        ["ls_remote", ["origin"]],
        ["fetch", ["origin"]],
        ["status", []],
      ] as const) {
        const r = await c.call("git", { command, args, ...where });
        expect(r.isError).toBe(true);
        // Worded from the refusal's data: the repository as the tool names it, the key, what to do.
        expect(r.text).toMatch(
          /git was not run in .+: The repository's git configuration sets remote\.origin\.uploadpack, a program git would run; .*git config --unset-all remote\.origin\.uploadpack/,
        );
      }
      expect(fs.existsSync(marker)).toBe(false);
    },
  );
});
