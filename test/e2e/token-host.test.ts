/**
 * The GitHub token goes only where the user sends it: api.github.com, GITHUB_API_URL, or an Enterprise host
 * listed in ~/.mcp_coder/config.toml. A local HTTPS server (self-signed certificate made here, trusted by the
 * server child through NODE_EXTRA_CA_CERTS) stands in for a foreign host named by the project's remote, a
 * reference project's remote and a URL-only reference project: it must receive no request at all. Listed as
 * an Enterprise host, the same server is used, with its own token.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveTarget } from "../../src/core/github/target.js";
import { expectFakeClean, FakeGitHub } from "../helpers/fake-github.js";
import { tempArea } from "../helpers/fixtures.js";
import { commit, git, initRepo } from "../helpers/git-repo.js";
import { fixtures } from "../helpers/github-fixtures.js";
import { type Connection, startServer } from "../helpers/server.js";

const area = tempArea("mcpfs-token-host-");
const key = path.join(area.base, "key.pem");
const cert = path.join(area.base, "cert.pem");
execFileSync(
  "openssl",
  [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"],
    ...["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
  ],
  { stdio: "ignore" },
);
const fake = new FakeGitHub({ key: fs.readFileSync(key, "utf8"), cert: fs.readFileSync(cert, "utf8") });
const f = fixtures(fake, "corp/proj");

function repoWithOrigin(name: string, url: string): string {
  const dir = initRepo(path.join(area.base, name));
  commit(dir, { "a.txt": "a\n" }, "init");
  git(dir, "remote", "add", "origin", url);
  return dir;
}

/** A server whose project, reference project and URL-only reference project all live on the HTTPS host. */
async function serve(home: string): Promise<Connection> {
  const project = repoWithOrigin(`${path.basename(home)}-project`, `${fake.url}/corp/proj.git`);
  const ref = repoWithOrigin(`${path.basename(home)}-ref`, `${fake.url}/corp/ref.git`);
  return startServer(
    [
      ...["--project-dir", project, "--console-only"],
      ...["--reference-project", `name=ref,path=${ref}`],
      ...["--reference-project", `name=urlref,url=${fake.url}/corp/urlref`],
    ],
    {
      env: {
        HOME: home,
        USERPROFILE: home,
        GITHUB_TOKEN: "main-token",
        GITHUB_API_URL: "",
        NODE_EXTRA_CA_CERTS: cert,
        MCPFS_GITHUB_TIMEOUT_MS: "3000",
      },
    },
  );
}

const targets = [
  ["the project's remote", {}] as const,
  ...["ref", "urlref"].map((r) => [r, { reference_name: r }] as const),
];

beforeAll(async () => {
  await fake.start();
});
expectFakeClean(fake);
afterAll(async () => {
  await fake.close();
  area.cleanup();
});

describe("a host the user did not list", () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await serve(area.tree("home-unlisted"));
  });
  afterAll(async () => conn?.close());

  it.each(targets)(
    "%s: an error naming the host and how to allow it; nothing reaches the host",
    async (_t, where) => {
      const host = new URL(fake.url).host;
      for (const tool of ["github_issue_list", "github_label_list"]) {
        const r = await conn.call(tool, { ...where });
        expect(r.text).toContain(`GitHub host '${host}'`);
        expect(r.text).toContain(`enterprise_hosts = ["${host}"]`);
      }
      const v = await conn.call("github_issue_view", { number: 1, ...where });
      expect(v.text).toContain(`GitHub host '${host}'`);
      expect(fake.received).toEqual([]);
    },
  );
});

describe("an Enterprise host the user listed, with a token of its own", () => {
  let conn: Connection;
  beforeAll(async () => {
    const home = area.tree("home-listed");
    const host = new URL(fake.url).host;
    fs.mkdirSync(path.join(home, ".mcp_coder"));
    fs.writeFileSync(
      path.join(home, ".mcp_coder/config.toml"),
      `[github]\nenterprise_hosts = [{ host = "${host}", token = "ghe-token" }]\n`,
    );
    conn = await serve(home);
  });
  afterAll(async () => conn?.close());

  it.each(targets)(
    "%s: served under /api/v3 with the host's token, never the main one",
    async (_t, where) => {
      fake.token = "ghe-token";
      fake.on("GET /repos/{owner}/{repo}/labels", () => ({ body: [f.label("infra")] }));
      const r = await conn.call("github_label_list", { ...where });
      expect(r.text).toBe("infra  #ededed");
      expect(fake.received.map((q) => q.url)).toEqual([
        expect.stringMatching(/^\/api\/v3\/repos\/corp\/[a-z]+\/labels/),
      ]);
      expect(fake.received.map((q) => q.authorization)).not.toContain("token main-token");
    },
  );
});

describe("where the token goes (the rule itself)", () => {
  const home = area.tree("home-rule/.mcp_coder");
  fs.writeFileSync(
    path.join(home, "config.toml"),
    '[github]\ntoken = "file-token"\nenterprise_hosts = ["GHE.example.com", { host = "other.example:8443", token = "t2" }, 7]\n',
  );
  const env = { HOME: path.dirname(home), GITHUB_TOKEN: "" };
  /** Where the client for a URL-only reference project on `host` sends its requests, and with which token. */
  const at = async (host: string, extra: Record<string, string> = {}) => {
    const t = await resolveTarget({
      roots: [],
      urlOnlyReferences: [{ name: "ref", url: `https://${host}/o/r` }],
      referenceName: "ref",
      env: { ...env, ...extra },
    });
    return { apiBase: t.apiBase, token: ((await t.gh.auth()) as { token?: string }).token };
  };

  it("github.com, listed Enterprise hosts (any case, with their own token or the main one), GITHUB_API_URL", async () => {
    expect(await at("github.com")).toEqual({ apiBase: "https://api.github.com", token: "file-token" });
    expect(await at("ghe.example.com")).toEqual({
      apiBase: "https://ghe.example.com/api/v3",
      token: "file-token",
    });
    expect(await at("other.example:8443")).toEqual({
      apiBase: "https://other.example:8443/api/v3",
      token: "t2",
    });
    expect(await at("anything.example", { GITHUB_API_URL: "https://api.corp/" })).toEqual({
      apiBase: "https://api.corp",
      token: "file-token",
    });
  });

  it("any other host, including an unlisted GHE Cloud or another port of a listed host, is refused", async () => {
    for (const host of ["attacker.example", "acme.ghe.com", "ghe.example.com:444", "other.example"])
      await expect(at(host)).rejects.toThrow(`GitHub host '${host}' (from reference project 'ref')`);
  });
});
